import type { PreToolHookArgs, StopHookArgs } from "@ag-ui-antigravity/harness";
import { describe, expect, it } from "vitest";
import type { HookNote } from "./hook-notes.js";
import { type ObservedThread, type ObserverSettings, withObservers } from "./observer-hooks.js";

function settings(overrides: Partial<ObserverSettings> = {}): ObserverSettings {
  return {
    onStop: undefined,
    maxContinuations: 2,
    onCompaction: undefined,
    compactionHook: true,
    observeTools: true,
    maxPendingSchedules: 1,
    maxScheduleDelayMs: 60_000,
    now: () => Date.parse("2030-01-01T00:00:00Z"),
    ...overrides,
  };
}

function thread(): ObservedThread & { notes: HookNote[]; warnings: string[] } {
  const notes: HookNote[] = [];
  const warnings: string[] = [];
  let pendingSchedules = 0;
  return {
    threadId: "t1",
    notes,
    warnings,
    get pendingSchedules() {
      return pendingSchedules;
    },
    noteScheduled: () => void (pendingSchedules += 1),
    relay: (note) => void notes.push(note),
    warn: (_details, message) => void warnings.push(message),
  };
}

const preTool = (toolName: string, args: Record<string, unknown> = {}, reason: PreToolHookArgs["reason"] = "hook"): PreToolHookArgs => ({
  toolName,
  arguments: args,
  argumentsJson: JSON.stringify(args),
  conversationId: "c1",
  callId: "call-1",
  trajectoryId: "main",
  stepIndex: 3,
  reason,
});

const stop = (continuationCount: number, stopReason?: string): StopHookArgs => ({
  conversationId: "c1",
  trajectoryId: "main",
  responseText: "Here is the report.",
  errorMessage: "",
  continuationCount,
  ...(stopReason === undefined ? {} : { stopReason }),
});

describe("the agent's observer hooks", () => {
  it("watch without gating: other tools are allowed, but a call a confirm policy asks about is still denied with no host gate", async () => {
    const hooks = withObservers({}, settings(), thread());
    expect(await hooks.preTool?.(preTool("view_file"))).toEqual({ decision: "allow" });
    expect(await hooks.preTool?.(preTool("view_file", {}, "policy-confirm"))).toEqual({ decision: "deny", reason: expect.stringContaining("requires confirmation") });
    // The host's own gate decides when there is one.
    const gated = withObservers({ preTool: () => ({ decision: "deny", reason: "no" }) }, settings(), thread());
    expect(await gated.preTool?.(preTool("manage_task", { task: "x" }))).toEqual({ decision: "deny", reason: "no" });
  });

  it("relay a watched tool's hooks with its call, and call the host's post-tool hook too", async () => {
    const watched = thread();
    const seen: string[] = [];
    const hooks = withObservers({ postTool: (args) => void seen.push(args.toolName) }, settings(), watched);
    await hooks.preTool?.(preTool("manage_task", { task: "ship" }));
    await hooks.postTool?.({ toolName: "manage_task", conversationId: "c1", callId: "call-1", trajectoryId: "main", stepIndex: 3, result: "ok", error: "" });
    await hooks.postTool?.({ toolName: "view_file", conversationId: "c1", result: "ok", error: "" });
    expect(watched.notes).toEqual([
      { kind: "tool", note: { phase: "pre", toolName: "manage_task", callId: "call-1", trajectoryId: "main", stepIndex: 3, arguments: { task: "ship" } } },
      { kind: "tool", note: { phase: "post", toolName: "manage_task", callId: "call-1", trajectoryId: "main", stepIndex: 3, result: "ok", error: "" } },
    ]);
    expect(seen).toEqual(["manage_task", "view_file"]);
  });

  it("refuse a schedule past the thread's limits, counting those that ran", async () => {
    const watched = thread();
    const hooks = withObservers({}, settings(), watched);
    expect(await hooks.preTool?.(preTool("schedule", { prompt: "later", delay_ms: 120_000 }))).toEqual({ decision: "deny", reason: expect.stringContaining("at most 60 seconds ahead") });
    expect(await hooks.preTool?.(preTool("schedule", { prompt: "later", at: "2030-01-01T00:30:00Z" }))).toMatchObject({ decision: "deny" });
    expect(await hooks.preTool?.(preTool("schedule", { prompt: "soon", delay_ms: 500 }))).toEqual({ decision: "allow" });
    await hooks.postTool?.({ toolName: "schedule", conversationId: "c1", result: "Scheduled", error: "" });
    expect(watched.pendingSchedules).toBe(1);
    expect(await hooks.preTool?.(preTool("schedule", { prompt: "again", delay_ms: 500 }))).toEqual({ decision: "deny", reason: expect.stringContaining("1 scheduled turns waiting") });
    expect(watched.warnings).toHaveLength(3);
  });

  it("ask the host to stop within maxContinuations, tell the client each continuation, and stop after a budget whatever it says", async () => {
    const watched = thread();
    const asked: number[] = [];
    const hooks = withObservers(
      {},
      settings({
        onStop: (args) => {
          asked.push(args.continuationCount);
          return { decision: "continue", reason: "keep going" };
        },
      }),
      watched,
    );
    expect(await hooks.stop?.(stop(0))).toEqual({ decision: "continue", reason: "keep going" });
    expect(await hooks.stop?.(stop(1))).toEqual({ decision: "continue", reason: "keep going" });
    expect(await hooks.stop?.(stop(2))).toEqual({ decision: "stop" });
    expect(await hooks.stop?.(stop(0, "STOP_REASON_MAX_TOOL_CALLS_EXCEEDED"))).toEqual({ decision: "stop" });
    expect(asked).toEqual([0, 1, 0]);
    expect(watched.notes).toEqual([
      { kind: "continuation", note: { continuation: 1, reason: "keep going", maxContinuations: 2 } },
      { kind: "continuation", note: { continuation: 2, reason: "keep going", maxContinuations: 2 } },
    ]);
  });

  it("relay a compaction's summary only on a release with the hook, and leave the host's own hooks to the settings", async () => {
    const watched = thread();
    const summaries: string[] = [];
    const hooks = withObservers({ onCompaction: () => undefined, stop: () => undefined }, settings({ onCompaction: (args) => void summaries.push(args.summary) }), watched);
    expect(hooks.stop).toBeUndefined();
    await hooks.onCompaction?.({ conversationId: "c1", trajectoryId: "main", stepIndex: 4, summary: "short" });
    expect(watched.notes).toEqual([{ kind: "compaction", note: { trajectoryId: "main", stepIndex: 4, summary: "short" } }]);
    expect(summaries).toEqual(["short"]);
    expect(withObservers({}, settings({ compactionHook: false }), thread()).onCompaction).toBeUndefined();
  });
});
