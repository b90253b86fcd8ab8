// The demo server started as the README says (`node dist/main.js`, no options: the emulator, no
// auth) keeps serving: while one address parks questions as fast as it can, a second address's new
// thread on every agent streams to RUN_FINISHED. Before client limits were on by default, that
// address parked 64 questions, filled the shared pool, and every new thread got RUN_STARTED and then
// silence.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { request } from "node:http";
import { expectNoChildProcesses } from "@ag-ui-antigravity/testing";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { demoFeatures } from "../src/agents/demo-agent-environment.js";
import { startDemoServer } from "./support/demo-server.js";
import { mainPath, waitForOutput } from "./support/server-process.js";

let child: ChildProcessWithoutNullStreams | undefined;

afterEach(() => {
  if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  child = undefined;
});

afterAll(async () => {
  await expectNoChildProcesses();
});

type Ending = "finished" | "parked" | "error" | "stalled" | "refused";

interface Reply {
  status: number;
  ending: Ending;
  retryAfter: string | undefined;
}

/** One run POSTed from `localAddress`, read until its terminal event, or until `timeoutMs` (a stall). */
function runFrom(localAddress: string, url: string, text: string, timeoutMs: number): Promise<Reply> {
  const body = JSON.stringify({ threadId: randomUUID(), runId: randomUUID(), messages: [{ id: randomUUID(), role: "user", content: text }], tools: [], context: [], state: {}, forwardedProps: {} });
  return new Promise((resolve) => {
    let settled = false;
    const settle = (reply: Reply): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outgoing.destroy();
      resolve(reply);
    };
    const timer = setTimeout(() => settle({ status: 200, ending: "stalled", retryAfter: undefined }), timeoutMs);
    const outgoing = request(url, { method: "POST", localAddress, headers: { "content-type": "application/json", accept: "text/event-stream", "content-length": Buffer.byteLength(body) } }, (response) => {
      const status = response.statusCode ?? 0;
      const retryAfter = response.headers["retry-after"];
      if (status !== 200) {
        response.resume();
        settle({ status, ending: "refused", retryAfter: typeof retryAfter === "string" ? retryAfter : undefined });
        return;
      }
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
        if (text.includes('"type":"RUN_ERROR"')) settle({ status, ending: "error", retryAfter: undefined });
        else if (/"type":"RUN_FINISHED"[^\n]*"outcome":\{"type":"interrupt"/.test(text)) settle({ status, ending: "parked", retryAfter: undefined });
        else if (text.includes('"type":"RUN_FINISHED"')) settle({ status, ending: "finished", retryAfter: undefined });
      });
      response.on("end", () => settle({ status, ending: "stalled", retryAfter: undefined }));
    });
    outgoing.on("error", () => settle({ status: 0, ending: "error", retryAfter: undefined }));
    outgoing.end(body);
  });
}

describe("the demo server under one address's flood of parked questions", () => {
  it("serves a second address's new thread on every agent while the first parks questions as fast as it can", { timeout: 180_000 }, async () => {
    expect(existsSync(mainPath), "run pnpm build first").toBe(true);
    // As the README starts it (pnpm start runs node dist/main.js): defaults only, on the emulator.
    child = spawn(process.execPath, [mainPath], { env: { ...process.env, PORT: "0", ANTIGRAVITY_DEMO_HARNESS: "emulator", LOG_LEVEL: "info" }, stdio: ["pipe", "pipe", "pipe"] });
    const server = child;
    let stdout = "";
    server.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    const [, url] = await waitForOutput(server, /listening on (http:\/\/127\.0\.0\.1:\d+)/, 30_000);
    // Without AUTH_TOKENS, each address is one client, and the server says so at startup.
    expect(stdout).toContain("client limits count per client address");

    // The flood: eight workers, each a new thread's question after another, never waiting.
    const flood: Record<Ending, number> = { finished: 0, parked: 0, error: 0, stalled: 0, refused: 0 };
    let attempts = 0;
    let stop = false;
    const workers = Array.from({ length: 8 }, async () => {
      while (!stop) {
        const reply = await runFrom("127.0.0.1", `${url}/questions`, "Help me pick a programming language", 5_000);
        attempts += 1;
        flood[reply.ending] += 1;
      }
    });
    try {
      // Enough to fill the shared pool (8 processes of 8 conversations) several times over.
      const deadline = Date.now() + 90_000;
      while (attempts < 100 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      // Meanwhile, another address: a new thread on each agent, one after the other (up to the first
      // that is not served: a stalled one waits its whole 20 s).
      const served: Record<string, Ending> = {};
      for (const feature of demoFeatures) {
        served[feature] = (await runFrom("127.0.0.2", `${url}/${feature}`, "hello", 20_000)).ending;
        if (served[feature] !== "finished") break;
      }
      console.info(`fair shares (demo): flood of ${attempts} → ${JSON.stringify(flood)}; second address → ${JSON.stringify(served)}`);
      expect(served).toEqual(Object.fromEntries(demoFeatures.map((feature) => [feature, "finished"])));
      // The flood got its share (16 parks) and then 429s, never a stalled stream.
      expect(flood.parked).toBeLessThanOrEqual(16);
      expect(flood.refused).toBeGreaterThan(0);
      expect(flood.stalled).toBe(0);
    } finally {
      stop = true;
      await Promise.all(workers);
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
  });

  it("past the shared pool's last free slot, a new thread takes the slot of an idle one on any agent, instead of RUN_STARTED and silence", { timeout: 60_000 }, async () => {
    // The demo's pool made small: one process of four conversations (the demo's is 8 of 8).
    const server = await startDemoServer({ pool: { maxProcesses: 1, maxConversationsPerProcess: 4 } });
    try {
      const address = new URL(server.url).hostname;
      const endings: Ending[] = [];
      // More new threads than slots, over several agents (each also keeps a spare ready when it can).
      for (const feature of ["agentic_chat", "shared_state", "backend_tool_rendering", "reconnect", "agentic_chat", "shared_state", "questions", "agentic_chat"] as const) {
        endings.push((await runFrom(address, `${server.url}/${feature}`, "hello", 20_000)).ending);
        if (endings.at(-1) !== "finished") break;
      }
      expect(endings).toEqual(Array(8).fill("finished"));
      expect(server.demo.pool.metrics().totals.reclaims).toBeGreaterThan(0);
      expect(server.demo.pool.metrics().conversations).toBeLessThanOrEqual(4);
    } finally {
      await server.close();
    }
  });
});

