import type { Message } from "@ag-ui/client";
import { describe, expect, test } from "vitest";
import { toolResultsById, unansweredFrontendCalls } from "../../src/agent/conversation.js";
import { changeBackgroundTool, generateTaskStepsTool, runAutomaticTool } from "../../src/features/frontendTools.js";

const call = (id: string, name: string, args = "{}") => ({ id, type: "function" as const, function: { name, arguments: args } });

const messages: Message[] = [
  { id: "u1", role: "user", content: "hi" },
  { id: "a1", role: "assistant", toolCalls: [call("c1", "generate_task_steps"), call("c2", "get_weather"), call("c3", "change_background")] },
  { id: "t3", role: "tool", toolCallId: "c3", content: "ok" },
];

describe("unansweredFrontendCalls", () => {
  test("lists frontend calls without a ToolMessage, ignoring server tools and answered calls", () => {
    const pending = unansweredFrontendCalls(messages, [generateTaskStepsTool, changeBackgroundTool]);
    expect(pending.map(({ call: pendingCall, tool }) => [pendingCall.id, tool.mode])).toEqual([["c1", "interactive"]]);
  });

  test("indexes tool results by the call they answer", () => {
    expect(toolResultsById(messages).get("c3")?.content).toBe("ok");
  });
});

describe("runAutomaticTool", () => {
  test("change_background applies the background and reports it to the model", () => {
    const applied: string[] = [];
    const result = JSON.parse(runAutomaticTool("change_background", { background: "navy" }, { setBackground: (value) => applied.push(value) })) as { status: string };
    expect(applied).toEqual(["navy"]);
    expect(result.status).toBe("success");
  });

  test("a call without a background is reported as an error, and nothing changes", () => {
    const applied: string[] = [];
    const result = JSON.parse(runAutomaticTool("change_background", {}, { setBackground: (value) => applied.push(value) })) as { status: string };
    expect(applied).toEqual([]);
    expect(result.status).toBe("error");
  });
});
