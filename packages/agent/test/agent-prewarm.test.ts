import { randomUUID } from "node:crypto";
import { lstatSync, readdirSync, readlinkSync } from "node:fs";
import { EventType } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { DEFAULT_AGENT_ID } from "../src/agent-core.js";
import { AntigravityAgent, threadWorkspacePath } from "../src/index.js";
import { lastAssistantText, runWith, useAgents, user } from "./support/agent-fixture.js";

const { makeAgent, tempDir, track } = useAgents();

/** Waits (bounded) until `condition` holds; the spares are opened in the background. */
async function eventually(condition: () => boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < 300 && !condition(); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 50));
  if (!condition()) throw new Error(`timed out waiting until ${what}`);
}

async function runOnThread(agent: AntigravityAgent, threadId: string, text: string) {
  const copy = agent.clone();
  copy.threadId = threadId;
  copy.setMessages([user(text)]);
  const outcome = await runWith(copy);
  return { ...outcome, answer: lastAssistantText(copy) };
}

describe("pre-warmed spare sessions", () => {
  it("a new thread takes a spare whose conversation is open; its workspace and record are the thread's", async () => {
    const workspaceRoot = tempDir();
    const saveDir = tempDir();
    const agent = makeAgent({ saveDir, workspaceRoot, prewarm: { spares: 1 } });
    expect(agent.stats().spareSessions).toBe(0);
    const first = await runOnThread(agent, randomUUID(), "hello");
    expect(first.finished).toBeDefined();
    await eventually(() => agent.stats().spareSessions === 1, "a spare is ready");

    const threadId = randomUUID();
    const second = await runOnThread(agent, threadId, "second thread");
    expect(second.events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
    expect(second.answer).toContain("second thread");
    // The thread's workspace path points at the spare's directory, where its conversation works.
    const workspace = threadWorkspacePath(workspaceRoot, threadId, DEFAULT_AGENT_ID);
    expect(lstatSync(workspace).isSymbolicLink()).toBe(true);
    expect(readlinkSync(workspace)).toMatch(/\.spare-/);
    // The taken spare is replaced in the background.
    await eventually(() => agent.stats().spareSessions === 1, "the spare is replaced");
    await agent.close();
    // Only the adopted spare's directory is left: the one no thread took is gone with it.
    expect(readdirSync(workspaceRoot).filter((name) => name.startsWith(".spare-"))).toHaveLength(1);

    // The adopted thread was recorded under its own id: a restarted agent resumes its conversation.
    const logs: string[] = [];
    const restarted = new AntigravityAgent({ harness: "emulator", saveDir, workspaceRoot, logger: { warn: (_details, message) => void logs.push(message) } });
    track(restarted);
    const resumed = await runOnThread(restarted, threadId, "again");
    expect(resumed.finished).toBeDefined();
    expect(logs).toContain("thread resumed its conversation");
  });

  it("refuses a prewarm option out of bounds, naming it", () => {
    expect(() => new AntigravityAgent({ harness: "emulator", prewarm: { spares: 0 } })).toThrow(/prewarm/);
    expect(() => new AntigravityAgent({ harness: "emulator", prewarm: { spares: 100 } })).toThrow(/prewarm/);
  });
});
