// Where the demo keeps thread state: files in SAVE_DIR, or Redis with REDIS_URL (a real redis-server).
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { descendantPids, expectClosesOnce, expectNoChildProcesses, isProcessAlive, redisSkipReason, startRedisServer } from "@ag-ui-antigravity/testing";
import { HttpAgent } from "@ag-ui/client";
import { createClient } from "redis";
import { afterAll, describe, expect, it, vi } from "vitest";
import { clientFor, say, userMessage } from "./support/agent-runs.js";
import { startDemoServer } from "./support/demo-server.js";
import { mainPath, waitForOutput } from "./support/server-process.js";

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

  it("closes once: signal aborts when close() starts, a second close() is the same promise, closed resolves with every harness process gone", async () => {
    const server = await startDemoServer();
    await say(clientFor(server.url, "agentic_chat"), "Hello");
    await expectClosesOnce(server.demo, () => server.demo.close({ deadlineMs: 5_000 }));
    await server.close();
    expect(server.demo.pool.metrics().closed).toBe(true);
    expect(existsSync(server.demo.temporaryRoot)).toBe(false);
    await expectNoChildProcesses();
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

describe("SAVE_DIR after kill -9", () => {
  /** `node dist/main.js` on the emulator with `saveDir`; resolves once it prints its URL. */
  async function startServerProcess(saveDir: string) {
    const child = spawn(process.execPath, [mainPath], {
      // 40 first runs at once from one address: past the per-client limits (8 runs), on purpose.
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ANTIGRAVITY_DEMO_HARNESS: "emulator", SAVE_DIR: saveDir, LOG_LEVEL: "info", CLIENT_LIMITS: "off" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const [, url] = await waitForOutput(child, /listening on (http:\/\/127\.0\.0\.1:\d+)/, 30_000);
    return { child, url: url!, exited };
  }

  /** A slot file holding a whole write: JSON whose serial and seal agree (neither, for a record written before slots). */
  function isWholeSlot(text: string): boolean {
    try {
      const { serial, seal } = JSON.parse(text) as { serial?: unknown; seal?: unknown };
      return serial === seal;
    } catch {
      return false;
    }
  }

  function recordFiles(saveDir: string): string[] {
    const root = join(saveDir, "ag-ui-threads");
    return readdirSync(root).flatMap((agent) => readdirSync(join(root, agent)).map((name) => join(root, agent, name)));
  }

  it("a server killed while 40 first runs write the thread map restarts with every record intact and every finished thread continuing", async () => {
    const saveDir = mkdtempSync(join(tmpdir(), "agd-kill-"));
    directories.push(saveDir);
    const first = await startServerProcess(saveDir);
    const threads = Array.from({ length: 40 }, (_, index) => ({ threadId: `thread-${randomUUID()}`, message: userMessage(`My favourite number is ${index}.`) }));
    const finished = new Set<number>();
    // Every first run writes its thread's record; the kill lands while most of them are in flight.
    // Raw requests, not HttpAgent: a stream cut by the kill is expected here, and HttpAgent reports
    // one as an unhandled rejection.
    const runs = threads.map(async ({ threadId, message }, index) => {
      try {
        const response = await fetch(`${first.url}/agentic_chat`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "text/event-stream" },
          body: JSON.stringify({ threadId, runId: randomUUID(), messages: [message], tools: [], context: [], state: {}, forwardedProps: {} }),
        });
        if ((await response.text()).includes('"RUN_FINISHED"')) finished.add(index);
      } catch {
        // Cut by the kill.
      }
    });
    const deadline = Date.now() + 60_000;
    while (finished.size < 5 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(finished.size, "no first run finished before the kill").toBeGreaterThanOrEqual(5);
    const finishedBeforeKill = new Set(finished);
    const harnesses = descendantPids(first.child.pid);
    first.child.kill("SIGKILL");
    await first.exited;
    await Promise.all(runs);
    // Its harness processes lose their parent; they are not the restarted server's to manage.
    for (const pid of harnesses) if (isProcessAlive(pid)) process.kill(pid, "SIGKILL");

    // A thread's record is two slot files (`<digest>.json`, `.json.1`); a slot the kill cut while it
    // was being written is torn (it does not parse, or its serial and seal disagree) and is read as
    // missing. Every thread whose first run finished has a whole record: RUN_FINISHED waits for it.
    const slots = recordFiles(saveDir).filter((path) => /\.json(\.1)?$/.test(path));
    const records = new Set(slots.filter((path) => isWholeSlot(readFileSync(path, "utf8"))).map((path) => path.replace(/\.1$/, "")));
    expect(records.size).toBeGreaterThanOrEqual(finishedBeforeKill.size);

    const second = await startServerProcess(saveDir);
    try {
      const continueThread = (index: number) => {
        const thread = threads[index]!;
        const client = new HttpAgent({ url: `${second.url}/agentic_chat`, threadId: thread.threadId, initialMessages: [thread.message] });
        return say(client, "Please recap.");
      };
      for (const index of finishedBeforeKill) {
        const recap = await continueThread(index);
        expect(recap.finished.type, `thread ${index}`).toBe("RUN_FINISHED");
        expect(recap.text, `thread ${index}`).toContain(`My favourite number is ${index}.`);
      }
      // A thread whose first run was cut by the kill also continues: its history comes from the client.
      const cut = threads.findIndex((_thread, index) => !finishedBeforeKill.has(index));
      if (cut >= 0) expect((await continueThread(cut)).finished.type).toBe("RUN_FINISHED");
    } finally {
      const harnessesOfSecond = descendantPids(second.child.pid);
      second.child.kill("SIGTERM");
      await second.exited;
      for (const pid of harnessesOfSecond) if (isProcessAlive(pid)) process.kill(pid, "SIGKILL");
    }
    console.info(`killed with ${finishedBeforeKill.size}/40 first runs finished: ${records.size} whole records (${slots.length} slot files); every finished thread recapped after the restart`);
  }, 180_000);
});

const skipReason = redisSkipReason();
describe.skipIf(skipReason !== undefined)(`REDIS_URL (a real redis-server)${skipReason === undefined ? "" : `: skipped, ${skipReason}`}`, () => {
  it("keeps each thread's record (conversation, transcript, lease) in one Redis hash, and removes this replica's heartbeat on close", async () => {
    const redis = await startRedisServer();
    const inspector = createClient({ url: redis.url });
    await inspector.connect();
    try {
      const server = await startDemoServer({ state: { redisUrl: redis.url, replicaId: "replica-under-test" } });
      try {
        await say(clientFor(server.url, "agentic_chat"), "Hello");
        const records = await inspector.keys("ag-ui:record:agentic_chat-*");
        expect(records).toHaveLength(1);
        expect(await inspector.hGet(records[0] ?? "", "holder")).toBe("replica-under-test");
        expect(await inspector.hGet(records[0] ?? "", "record")).toContain('"conversationId"');
        // The transcript is written a moment after the run's end.
        await vi.waitFor(async () => expect(await inspector.hGet(records[0] ?? "", "transcript")).toContain("Hello"));
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
