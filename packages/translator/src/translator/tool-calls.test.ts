import type { AGUIEvent } from "@ag-ui/core";
import type { StepToolCall } from "@ag-ui-antigravity/harness";
import { describe, expect, it } from "vitest";
import { toolStep } from "../../test/support/steps.js";
import { sequentialIds } from "../ids/id-generator.js";
import { MessageBlocks } from "./message-blocks.js";
import { SubagentBrackets } from "./subagent-brackets.js";
import { SubagentLinks } from "./subagent-links.js";
import { ToolCalls } from "./tool-calls.js";
import { type Scope, type StepRecord, TurnMemory } from "./turn-memory.js";

function toolCalls(showBuiltinToolCalls = true): ToolCalls {
  const turn = new TurnMemory();
  const options = { ids: sequentialIds(), showBuiltinToolCalls, maxArgumentDeltaLength: 256, subagentEvents: "subagent" as const, subagentDescriptions: new Map<string, string>(), onUnmatchedSubagent: undefined };
  const blocks = new MessageBlocks(options.ids);
  return new ToolCalls(turn, options, { blocks, subagents: new SubagentBrackets(turn, blocks, options), links: new SubagentLinks(turn, options) });
}

const listing: StepToolCall = { kind: "builtin", name: "list_directory", actionField: "listDirectory", arguments: { directoryPath: "/tmp" } };

function fresh(): StepRecord {
  return { textSeen: 0, thinkingSeen: 0, outputHandled: false, finished: false };
}

describe("ToolCalls", () => {
  it("gives a step's card the id promised for it, unless a host call already took that id", () => {
    const calls = toolCalls();
    const scope: Scope = { trajectoryId: "main" };
    expect(calls.bindCallId("step-1", "call-promised")).toBe("call-promised");
    expect(calls.bindCallId("step-1", "call-later")).toBe("call-promised");
    calls.startHost({ toolCallId: "call-promised", toolCallName: "write_note", arguments: {} }, scope);
    const events: AGUIEvent[] = [];
    const call = calls.ofStep(listing, fresh(), scope, events, "step-1");
    expect(call?.toolCallId).not.toBe("call-promised");
    expect(events[0]).toMatchObject({ type: "TOOL_CALL_START", toolCallId: call?.toolCallId, toolCallName: "list_directory" });
  });

  it("settles a hidden built-in without a word, once, with the fields its step added as its result", () => {
    const calls = toolCalls(false);
    const scope: Scope = { trajectoryId: "main" };
    const record = fresh();
    const events: AGUIEvent[] = [];
    const call = calls.ofStep(listing, record, scope, events, "step-1");
    expect(call).toMatchObject({ shown: false, settled: false, fromHarness: true });
    expect(calls.ofStep(listing, record, scope, events, "step-1")).toBe(call);
    const done = toolStep({ status: "done", call: { arguments: { directoryPath: "/tmp", entries: ["a"] } } });
    if (call === undefined || done.tool === undefined) throw new Error("the step made a call");
    calls.settleFromStep(done, done.tool, "done", record, call, events);
    expect(events).toEqual([]);
    expect(call.settled).toBe(true);
    // Settled already: neither the end of the turn nor a refusal says anything about it.
    expect(calls.settleUnreported()).toEqual([]);
    expect(calls.refuse({ toolCallId: call.toolCallId, toolName: "list_directory", reason: "no" })).toEqual([]);
  });

  it("ends the turn's unreported harness calls but leaves host calls to the host", () => {
    const calls = toolCalls();
    const scope: Scope = { trajectoryId: "main" };
    calls.startHost({ toolCallId: "host-1", toolCallName: "write_note", arguments: {} }, scope);
    const call = calls.ofStep(listing, fresh(), scope, [], "step-1");
    const closing = calls.settleUnreported();
    expect(closing).toHaveLength(1);
    expect(closing[0]).toMatchObject({ type: "TOOL_CALL_RESULT", toolCallId: call?.toolCallId });
    expect(calls.settleHost({ toolCallId: "host-1", output: "ok" })).toMatchObject([{ type: "TOOL_CALL_RESULT", toolCallId: "host-1" }]);
  });
});
