// Where the demo keeps thread state: files in SAVE_DIR, or Redis with REDIS_URL (a real redis-server).
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expectNoChildProcesses, redisSkipReason, startRedisServer } from "@ag-ui-antigravity/testing";
import { createClient } from "redis";
import { afterAll, describe, expect, it } from "vitest";
import { clientFor, say, userMessage } from "./support/agent-runs.js";
import { startDemoServer } from "./support/demo-server.js";

const directories: string[] = [];
afterAll(async () => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
  await expectNoChildProcesses();
});

describe("no state configuration (pnpm start)", () => {
  it("runs on memory alone: no Redis, no save dir", async () => {
    const server = await startDemoServer();
    try {
      await say(clientFor(server.url, "agentic_chat"), "Hello");
      const metrics = (await (await fetch(`${server.url}/metrics`)).json()) as { state: { kind: string }; agents: { agentic_chat: { threadStore: { kind: string } } } };
      expect(metrics.state.kind).toBe("memory");
      expect(metrics.agents.agentic_chat.threadStore.kind).toBe("memory");
    } finally {
      await server.close();
    }
  });
});

describe("SAVE_DIR", () => {
  it("keeps the thread map and owners in files that a restarted server continues from", async () => {
    const saveDir = mkdtempSync(join(tmpdir(), "agd-save-"));
    directories.push(saveDir);
    let server = await startDemoServer({ state: { saveDir } });
    const client = clientFor(server.url, "agentic_chat");
    try {
      await say(client, "Hello");
    } finally {
      await server.close();
    }
    const agentDirectories = readdirSync(join(saveDir, "ag-ui-threads"));
    expect(agentDirectories.some((name) => name.startsWith("agentic_chat-"))).toBe(true);
    server = await startDemoServer({ state: { saveDir } });
    try {
      // The same client (same thread, its history) on the restarted server.
      client.url = `${server.url}/agentic_chat`;
      client.addMessage(userMessage("Hello again"));
      await expect(client.runAgent()).resolves.toBeDefined();
      const metrics = (await (await fetch(`${server.url}/metrics`)).json()) as { state: { kind: string } };
      expect(metrics.state.kind).toBe("file");
    } finally {
      await server.close();
    }
  });
});

const skipReason = redisSkipReason();
describe.skipIf(skipReason !== undefined)(`REDIS_URL (a real redis-server)${skipReason === undefined ? "" : `: skipped, ${skipReason}`}`, () => {
  it("keeps the thread map and this replica's thread leases in Redis, and removes its heartbeat on close", async () => {
    const redis = await startRedisServer();
    const inspector = createClient({ url: redis.url });
    await inspector.connect();
    try {
      const server = await startDemoServer({ state: { redisUrl: redis.url, replicaId: "replica-under-test" } });
      try {
        await say(clientFor(server.url, "agentic_chat"), "Hello");
        expect(await inspector.keys("ag-ui:thread:agentic_chat-*")).toHaveLength(1);
        const [lease] = await inspector.keys("ag-ui:lease:agentic_chat-*");
        expect(await inspector.get(lease ?? "")).toBe("replica-under-test");
        expect(await inspector.exists("ag-ui:replica:replica-under-test")).toBe(1);
        const metrics = (await (await fetch(`${server.url}/metrics`)).json()) as { state: { kind: string }; agents: { agentic_chat: { threadStore: { kind: string; writeFailures: number } } } };
        expect(metrics.state.kind).toBe("redis");
        expect(metrics.agents.agentic_chat.threadStore).toMatchObject({ kind: "redis", writeFailures: 0 });
      } finally {
        await server.close();
      }
      expect(await inspector.exists("ag-ui:replica:replica-under-test")).toBe(0);
    } finally {
      await inspector.close();
      await redis.stop();
    }
  });
});
