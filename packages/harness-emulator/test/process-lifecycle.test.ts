// The emulator as a process: authentication, shutdown and persistence, and the fault actions
// scenarios can trigger (what it refuses is in strictness.test.ts). Every test spawns the BUILT binary.
import { existsSync, readFileSync } from "node:fs";
import { get as httpGet } from "node:http";
import { join } from "node:path";
import { portAccepts } from "@ag-ui-antigravity/testing";
import WebSocket from "ws";
import { afterAll, describe, expect, it } from "vitest";
import { configFor, isAlive, outboundViolations, reapLeaks, scenarioDirectory, spawnEmulator, waitForStderr, type EmulatorProcess } from "./support/emulator-driver.js";

const spawned: EmulatorProcess[] = [];

async function start(env: Record<string, string> = {}): Promise<EmulatorProcess> {
  const emulator = await spawnEmulator({ env });
  spawned.push(emulator);
  return emulator;
}

afterAll(async () => {
  for (const emulator of spawned) if (isAlive(emulator.child.pid) && emulator.child.exitCode === null) await emulator.stop();
  const leaks = await reapLeaks();
  expect(leaks).toEqual({ children: 0, sockets: 0 });
  // The fault actions break frames on purpose; everything else is valid for the release played.
  const deliberate = /futureField|STATE_FROM_THE_FUTURE|brandNewEvent/;
  expect(outboundViolations.filter((violation) => !deliberate.test(violation.issue))).toEqual([]);
  for (const emulator of spawned) {
    expect(isAlive(emulator.child.pid)).toBe(false);
    // The port is released: nothing listens there any more.
    expect(await portAccepts(emulator.port, "localhost")).toBe(false);
  }
});

function upgradeStatus(port: number, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://localhost:${port}/`, { headers });
    socket.once("unexpected-response", (_request, response) => {
      resolve(response.statusCode ?? 0);
      socket.terminate();
    });
    socket.once("open", () => {
      socket.terminate();
      reject(new Error("upgrade unexpectedly accepted"));
    });
    socket.once("error", () => undefined);
  });
}

describe("authentication", () => {
  it("refuses an upgrade with a wrong or missing x-goog-api-key with HTTP 401 and says why on stderr", async () => {
    const emulator = await start();
    expect(await upgradeStatus(emulator.port, { "x-goog-api-key": "wrong" })).toBe(401);
    expect(await upgradeStatus(emulator.port, {})).toBe(401);
    await waitForStderr(emulator, "wrong x-goog-api-key");
    await waitForStderr(emulator, "missing x-goog-api-key header");
    const conversation = await emulator.connect();
    const init = await conversation.init(configFor("plain"));
    expect(init["initializeConversationResponse"].cascadeId).toMatch(/^[0-9a-f]{32}$/);
    await conversation.close();
  });
});

/** What a plain GET to the port gets: a status, `no answer` within the bound, or `reset`. */
function plainGet(port: number, boundMs: number): Promise<number | "no answer" | "reset"> {
  return new Promise((resolve) => {
    const request = httpGet({ host: "localhost", port, path: "/", agent: false, timeout: boundMs }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.once("timeout", () => {
      request.destroy();
      resolve("no answer");
    });
    request.once("error", () => resolve("reset"));
  });
}

describe("knobs for what the real harness may do differently (docs/protocol.md, \"Assumptions and how we hedge them\")", () => {
  it.each([
    ["answer", 426],
    ["silent", "no answer"],
    ["reset", "reset"],
  ] as const)("ANTIGRAVITY_EMULATOR_PLAIN_HTTP=%s: a plain GET gets %s, and the WebSocket still works", async (mode, expected) => {
    const emulator = await start({ ANTIGRAVITY_EMULATOR_PLAIN_HTTP: mode });
    expect(await plainGet(emulator.port, 500)).toBe(expected);
    const conversation = await emulator.connect();
    const init = await conversation.init(configFor("plain"));
    expect(init["initializeConversationResponse"].cascadeId).toMatch(/^[0-9a-f]{32}$/);
    await conversation.close();
  });

  it.each([
    ["empty", undefined],
    ["refuse", "no conversation"],
  ] as const)("ANTIGRAVITY_EMULATOR_UNKNOWN_RESUME=%s: CREATE_OR_RESUME of an unknown id", async (mode, refusal) => {
    const emulator = await start({ ANTIGRAVITY_EMULATOR_UNKNOWN_RESUME: mode });
    const conversation = await emulator.connect();
    const config = configFor("plain", { cascadeId: "e".repeat(32), sessionContinuationMode: "CREATE_OR_RESUME" });
    if (refusal === undefined) {
      const init = await conversation.init(config);
      // Started empty: no history, no usage; only the id (and, in 0.1.17+, the sandbox status).
      expect(init["initializeConversationResponse"]).toEqual({ cascadeId: "e".repeat(32), sandboxStatus: expect.any(Object) });
      await conversation.close();
      return;
    }
    conversation.send({ config });
    const closed = await conversation.closed;
    expect(closed.code).toBe(1011);
    expect(closed.reason).toContain(refusal);
    // A new conversation (no id asked for) is still welcome.
    const fresh = await emulator.connect();
    expect((await fresh.init(configFor("plain")))["initializeConversationResponse"].cascadeId).toMatch(/^[0-9a-f]{32}$/);
    await fresh.close();
  });
});

describe("shutdown", () => {
  it("stdin EOF persists every conversation, closes the sockets and exits 0 within 2 s, even mid-turn", async () => {
    const emulator = await start();
    const idle = await emulator.connect();
    const idleInit = await idle.init(configFor("plain"));
    idle.say("hello");
    await idle.untilIdle();
    const busy = await emulator.connect();
    const busyInit = await busy.init(configFor("custom", { tools: [{ name: "slow_tool", parametersJsonSchema: "{}" }] }));
    busy.say("use slow_tool");
    await busy.next((message) => message["toolCall"] !== undefined);
    const result = await emulator.stop();
    expect(result).toMatchObject({ code: 0, signal: null });
    expect(result.elapsedMs).toBeLessThan(2_000);
    await Promise.all([idle.closed, busy.closed]);
    for (const init of [idleInit, busyInit]) {
      const file = join(emulator.storageDirectory, "conversations", `${init["initializeConversationResponse"].cascadeId}.json`);
      expect(existsSync(file)).toBe(true);
      expect(JSON.parse(readFileSync(file, "utf8")).history.length).toBeGreaterThan(0);
    }
    // Nothing but the one OutputConfig frame ever reached stdout.
    const stdout = emulator.stdout();
    expect(stdout.length).toBe(4 + stdout.readUInt32LE(0));
  });

  it("SIGTERM shuts down the same way", async () => {
    const emulator = await start();
    const conversation = await emulator.connect();
    const init = await conversation.init(configFor("plain"));
    conversation.say("hello");
    await conversation.untilIdle();
    const started = Date.now();
    emulator.child.kill("SIGTERM");
    const exit = await emulator.exited;
    expect(exit.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(existsSync(join(emulator.storageDirectory, "conversations", `${init["initializeConversationResponse"].cascadeId}.json`))).toBe(true);
  });
});

describe("a client that dies", () => {
  it("exits promptly when stderr is gone too (no EPIPE storm starving the shutdown)", async () => {
    const emulator = await start();
    const conversation = await emulator.connect();
    await conversation.init(configFor("question", { agentBehavior: "AGENT_BEHAVIOR_INTERACTIVE" }));
    conversation.say("ask me between tea or coffee");
    await conversation.next((message) => message["stepUpdate"]?.["questionsRequest"] !== undefined);
    // What a SIGKILLed host leaves behind: every pipe closed from the far end, a turn parked.
    emulator.child.stderr.destroy();
    emulator.child.stdout.destroy();
    const result = await emulator.stop({ boundMs: 5_000 });
    expect(result.signal).toBeNull();
    expect(result.elapsedMs).toBeLessThan(2_000);
  });
});

describe("fault actions", () => {
  it("exits with the scripted code", async () => {
    const emulator = await start();
    const conversation = await emulator.connect();
    await conversation.init(configFor("faults"));
    conversation.say("exit");
    expect((await emulator.exited).code).toBe(3);
  });

  it("SIGKILLs itself", async () => {
    const emulator = await start();
    const conversation = await emulator.connect();
    await conversation.init(configFor("faults"));
    conversation.say("kill");
    expect((await emulator.exited).signal).toBe("SIGKILL");
    expect((await conversation.closed).code).toBe(1006);
  });

  it("stalls one turn forever without affecting another conversation; closes a socket; emits malformed and unknown frames", async () => {
    const emulator = await start();
    const stalled = await emulator.connect();
    await stalled.init(configFor("faults"));
    stalled.say("stall");
    await stalled.next((message) => message["trajectoryStateUpdate"]?.state === "STATE_RUNNING");
    const other = await emulator.connect();
    await other.init(configFor("faults"));
    other.say("malformed");
    await other.untilIdle();
    expect(other.messages.some((message) => message["__unparseable"] !== undefined)).toBe(true);
    other.say("unknown-field");
    expect((await other.untilIdle()).some((message) => message["stepUpdate"]?.futureField !== undefined)).toBe(true);
    other.say("unknown-enum");
    expect((await other.untilIdle()).some((message) => message["trajectoryStateUpdate"]?.state === "STATE_FROM_THE_FUTURE")).toBe(true);
    other.say("unknown-event");
    expect((await other.untilIdle()).some((message) => message["brandNewEvent"] !== undefined)).toBe(true);
    other.say("close");
    const closed = await other.closed;
    expect(closed).toEqual({ code: 4000, reason: "scenario closed the socket" });
    // The stalled turn never ended.
    expect(stalled.messages.some((message) => message["trajectoryStateUpdate"]?.state === "STATE_FULLY_IDLE")).toBe(false);
    await stalled.close();
  });
});

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("unicode", () => {
  it("never splits a character across deltas, nor in bounded command output", async () => {
    const emulator = await start();
    const conversation = await emulator.connect();
    await conversation.init(configFor("faults"));
    conversation.say("unicode 🎉");
    const turn = await conversation.untilIdle();
    for (const frame of conversation.rawFrames) expect(loneSurrogate.test(JSON.stringify(JSON.parse(frame)))).toBe(false);
    const deltas = turn.filter((message) => message["stepUpdate"]?.textDelta).map((message) => message["stepUpdate"].textDelta as string);
    expect(deltas.join("")).toBe("😀 héllo 日本 👍🏽 unicode 🎉");
    for (const delta of deltas) expect(loneSurrogate.test(delta)).toBe(false);
    const tools = await emulator.connect();
    await tools.init(configFor("builtins", { workspaces: [{ filesystemWorkspace: { directory: emulator.storageDirectory } }] }));
    tools.say("bigout");
    const big = await tools.untilIdle({ timeoutMs: 30_000 });
    const output = big.find((message) => message["stepUpdate"]?.state === "STATE_DONE" && message["stepUpdate"].runCommand)!["stepUpdate"].runCommand.combinedOutput as string;
    expect(output.length).toBe(1048575);
    expect(output.includes("\uFFFD")).toBe(false);
    expect(loneSurrogate.test(output)).toBe(false);
    await Promise.all([conversation.close(), tools.close()]);
  });
});

describe("background escalation", () => {
  it("ends the turn while a slow custom tool is parked and completes it later in a turn of its own", async () => {
    const emulator = await start();
    const conversation = await emulator.connect();
    await conversation.init(configFor("custom", { tools: [{ name: "slow_tool", parametersJsonSchema: "{}" }] }));
    conversation.say("background");
    const call = await conversation.next((message) => message["toolCall"] !== undefined);
    const first = await conversation.untilIdle();
    expect(first.some((message) => message["stepUpdate"]?.text === "Started: Tool slow_tool is still running in the background.")).toBe(true);
    conversation.send({ toolResponse: { id: call["toolCall"].id, responseJson: '{"result": "late but fine"}' } });
    const late = await conversation.untilIdle();
    expect(late[0]!["trajectoryStateUpdate"]).toMatchObject({ state: "STATE_RUNNING" });
    const mirror = late.find((message) => message["stepUpdate"]?.customTool?.toolResponse)!;
    expect(mirror["stepUpdate"]).toMatchObject({ state: "STATE_DONE", customTool: { toolCall: { id: call["toolCall"].id } } });
    expect(late.some((message) => message["stepUpdate"]?.text === "Background tool slow_tool finished: late but fine")).toBe(true);
    await conversation.close();
  });
});

describe("scenario selection", () => {
  it("takes the scenario from env (process env or InputConfig.env) when the model name does not name one", async () => {
    const emulator = await spawnEmulator({ input: { env: { ANTIGRAVITY_EMULATOR_SCENARIO: join(scenarioDirectory, "plain.json") } } });
    spawned.push(emulator);
    const conversation = await emulator.connect();
    await conversation.init({ models: [{ name: "gemini-3.6-flash", types: ["MODEL_TYPE_TEXT"] }] });
    conversation.say("hi");
    const turn = await conversation.untilIdle();
    expect(turn.filter((message) => message["stepUpdate"]?.state === "STATE_DONE").at(-1)!["stepUpdate"].text).toBe("Final answer");
    const unknown = await emulator.connect();
    unknown.send({ config: { models: [{ name: "emulator:no-such-scenario", types: ["MODEL_TYPE_TEXT"] }] } });
    expect((await unknown.closed).reason).toContain("no-such-scenario");
    await conversation.close();
  });

  it("deterministic mode gives identical frames across runs", async () => {
    const runs: string[][] = [];
    for (let run = 0; run < 2; run++) {
      const emulator = await start({ ANTIGRAVITY_EMULATOR_DETERMINISTIC: "1" });
      const conversation = await emulator.connect();
      await conversation.init(configFor("thinking"));
      conversation.say("same input");
      await conversation.untilIdle();
      runs.push(conversation.rawFrames);
      await conversation.close();
      await emulator.stop();
    }
    expect(runs[0]).toEqual(runs[1]);
    expect(runs[0]![0]).toContain('"cascadeId":"00000000000000000000000000000001"');
  });
});
