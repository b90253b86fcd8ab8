import type { AGUIEvent } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { sequentialIds } from "../ids/id-generator.js";
import { MessageBlocks } from "./message-blocks.js";
import { SubagentBrackets } from "./subagent-brackets.js";
import { type SubagentInvocation, TurnMemory } from "./turn-memory.js";

function invocation(subagentRunId: string, depth: number, extra: Partial<SubagentInvocation> = {}): SubagentInvocation {
  return { subagentRunId, name: `agent-${subagentRunId}`, stepName: `step-${subagentRunId}`, depth, announcedByTrajectory: false, finished: false, ...extra };
}

/** A turn with a subagent (`outer`, trajectory `t-outer`) that started another (`inner`, trajectory `t-inner`). */
function nestedTurn(): { turn: TurnMemory; outer: SubagentInvocation; inner: SubagentInvocation } {
  const turn = new TurnMemory();
  const outer = invocation("outer", 1, { trajectoryId: "t-outer" });
  const inner = invocation("inner", 2, { trajectoryId: "t-inner", parentSubagentRunId: "outer" });
  turn.invocations.push(outer, inner);
  turn.scopes.set("t-outer", { trajectoryId: "t-outer", invocation: outer });
  turn.scopes.set("t-inner", { trajectoryId: "t-inner", invocation: inner });
  return { turn, outer, inner };
}

function brackets(turn: TurnMemory, subagentEvents: "subagent" | "step"): { subagents: SubagentBrackets; blocks: MessageBlocks } {
  const blocks = new MessageBlocks(sequentialIds());
  return { subagents: new SubagentBrackets(turn, blocks, { subagentEvents, subagentDescriptions: new Map([["agent-inner", "Digs deeper"]]) }), blocks };
}

describe("SubagentBrackets", () => {
  it("announces a nested subagent's parent first, once per run, and suspends the innermost first at the run boundary", () => {
    const { turn, inner } = nestedTurn();
    const { subagents } = brackets(turn, "subagent");
    const events: AGUIEvent[] = [];
    expect(subagents.attribution(turn.scopes.get("t-inner") ?? { trajectoryId: "" }, events)).toBe("inner");
    subagents.announce(inner, events);
    expect(events).toEqual([
      { type: "SUBAGENT_STARTED", subagentRunId: "outer", name: "agent-outer", metadata: { antigravity: { depth: 1 } } },
      { type: "SUBAGENT_STARTED", subagentRunId: "inner", name: "agent-inner", description: "Digs deeper", parentSubagentRunId: "outer", metadata: { antigravity: { depth: 2 } } },
    ]);
    const closing: AGUIEvent[] = [];
    subagents.suspendAll(closing);
    expect(closing).toEqual([
      { type: "SUBAGENT_FINISHED", subagentRunId: "inner", outcome: { type: "suspended" } },
      { type: "SUBAGENT_FINISHED", subagentRunId: "outer", outcome: { type: "suspended" } },
    ]);
    // A new run forgets what was announced: the subagent is announced again before its next event.
    subagents.forget();
    const next: AGUIEvent[] = [];
    subagents.announce(inner, next);
    expect(next.map((event) => event.type)).toEqual(["SUBAGENT_STARTED", "SUBAGENT_STARTED"]);
  });

  it("finishes a subagent after what its trajectory has open, announcing it first when this run has not, and only once", () => {
    const { turn, outer } = nestedTurn();
    const { subagents, blocks } = brackets(turn, "subagent");
    const events: AGUIEvent[] = [];
    blocks.appendText({ trajectoryId: "t-outer" }, "step-1", "done", "outer", events);
    events.length = 0;
    subagents.finish(outer, "  ", events);
    subagents.finish(outer, undefined, events);
    expect(events.map((event) => event.type)).toEqual(["TEXT_MESSAGE_END", "SUBAGENT_STARTED", "SUBAGENT_ERROR"]);
    expect(events[2]).toMatchObject({ subagentRunId: "outer", message: 'The subagent "agent-outer" failed.' });
    // Finished in this run: neither announced again nor suspended at its end.
    subagents.announce(outer, events);
    subagents.suspendAll(events);
    expect(events).toHaveLength(3);
    expect(subagents.attribution({ trajectoryId: "t-outer", invocation: outer }, events)).toBe("outer");
    expect(events).toHaveLength(3);
  });

  it("in step mode brackets with STEP_STARTED / STEP_FINISHED and attributes nothing", () => {
    const { turn, outer, inner } = nestedTurn();
    const { subagents } = brackets(turn, "step");
    const events: AGUIEvent[] = [];
    expect(subagents.attribution({ trajectoryId: "t-inner", invocation: inner }, events)).toBeUndefined();
    outer.answer = "ignored in step mode";
    subagents.finish(outer, undefined, events);
    subagents.suspendAll(events);
    expect(events).toEqual([
      { type: "STEP_STARTED", stepName: "step-inner" },
      { type: "STEP_STARTED", stepName: "step-outer" },
      { type: "STEP_FINISHED", stepName: "step-outer" },
      { type: "STEP_FINISHED", stepName: "step-inner" },
    ]);
  });
});
