// The MCP SDK's own client drives the server end to end, over stdio (the built executable) and
// streamable HTTP (in process), with the emulator standing in for localharness.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { execFile } from "node:child_process";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type ElicitRequest, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { emulatorBinPath, expectNoChildProcesses, isProcessAlive } from "@ag-ui-antigravity/testing";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { DEFAULT_SESSION_BUILTIN_TOOLS, McpServerError, SessionRegistry, serveHttp, type HttpMcpServer } from "../src/index.js";

const binPath = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const packageJson = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
const workspace = mkdtempSync(join(tmpdir(), "mcp-server-workspace-"));
const closers: (() => Promise<unknown>)[] = [];
/** Calls can be long on a loaded 2-core machine; progress notifications also extend them. */
const callOptions = { timeout: 120_000, resetTimeoutOnProgress: true };

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

afterAll(async () => {
  await expectNoChildProcesses();
  rmSync(workspace, { recursive: true, force: true });
});

interface Elicitations {
  requests: ElicitRequest["params"][];
}

/** An MCP client that declares elicitation and answers each form with `answer`. */
async function connectClient(transport: StdioClientTransport | StreamableHTTPClientTransport, answer?: (request: ElicitRequest["params"]) => ElicitResult): Promise<Client & Elicitations> {
  const client = new Client({ name: "test-client", version: "1.0.0" }, { capabilities: answer === undefined ? {} : { elicitation: { form: {} } } });
  const requests: ElicitRequest["params"][] = [];
  if (answer !== undefined) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      requests.push(request.params);
      return answer(request.params);
    });
  }
  await client.connect(transport);
  closers.push(() => client.close());
  return Object.assign(client, { requests });
}

interface TurnReply {
  sessionId: string;
  reply: string;
  cancelled: boolean;
  notes: string[];
}

async function runTurn(client: Client, args: { message: string; sessionId?: string; keepSession?: boolean }, progress: string[] = []): Promise<TurnReply> {
  const result = await client.callTool({ name: "run_turn", arguments: args }, undefined, { ...callOptions, onprogress: (update) => void progress.push(update.message ?? "") });
  expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
  return result.structuredContent as unknown as TurnReply;
}

const pickCoffee = (request: ElicitRequest["params"]): ElicitResult => {
  const field = Object.keys((request as { requestedSchema: { properties: object } }).requestedSchema.properties)[0]!;
  return { action: "accept", content: { [field]: "coffee" } };
};

/** The acceptance flow: a turn, a continued turn with history, a question through elicitation, close. */
async function driveSessionLifecycle(client: Client & Elicitations): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual(["close_session", "list_sessions", "run_turn"]);
  expect(tools.find((tool) => tool.name === "run_turn")?.inputSchema).toMatchObject({ type: "object", required: ["message"] });

  const progress: string[] = [];
  const first = await runTurn(client, { message: "hello there" }, progress);
  expect(first.reply).toContain('You said: "hello there"');
  expect(progress.length).toBeGreaterThan(0);
  expect(progress.join("")).toContain("hello there");

  const second = await runTurn(client, { sessionId: first.sessionId, message: "please recap" });
  expect(second.sessionId).toBe(first.sessionId);
  expect(second.reply).toContain('1. "hello there"');

  const third = await runTurn(client, { sessionId: first.sessionId, message: "ask me to choose between tea, coffee or juice" });
  expect(client.requests).toHaveLength(1);
  expect(client.requests[0]?.message).toContain("Which one do you choose?");
  expect(Object.values((client.requests[0] as { requestedSchema: { properties: Record<string, unknown> } }).requestedSchema.properties)[0]).toMatchObject({
    type: "string",
    enum: ["tea", "coffee", "juice"],
  });
  expect(third.reply).toBe("You chose: coffee.");

  const listed = await client.callTool({ name: "list_sessions", arguments: {} });
  expect((listed.structuredContent as { sessions: { sessionId: string; turns: number }[] }).sessions).toContainEqual(expect.objectContaining({ sessionId: first.sessionId, turns: 3 }));

  const closed = await client.callTool({ name: "close_session", arguments: { sessionId: first.sessionId } });
  expect(closed.structuredContent).toEqual({ sessionId: first.sessionId, closed: true });
  const after = await client.callTool({ name: "run_turn", arguments: { sessionId: first.sessionId, message: "still there?" } });
  expect(after.isError).toBe(true);
  expect(JSON.stringify(after.content)).toContain("SESSION_NOT_FOUND");
}

/** The built executable over stdio, with a minimal environment; `stderr` collects what it prints. */
function builtServerOverStdio(): { transport: StdioClientTransport; stderr: string[] } {
  const stderr: string[] = [];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [binPath, "--workspace", workspace],
    env: { PATH: process.env["PATH"] ?? "", HOME: process.env["HOME"] ?? "" },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk.toString("utf8")));
  return { transport, stderr };
}

describe("over stdio (the built executable)", () => {
  it("runs, continues, asks through elicitation and closes a session", async () => {
    const { transport, stderr } = builtServerOverStdio();
    const client = await connectClient(transport, pickCoffee);
    // The handshake names the release that runs, not a constant that drifts from package.json.
    expect(client.getServerVersion()).toEqual({ name: "antigravity", version: packageJson.version });
    await driveSessionLifecycle(client);
    // No key: the emulator runs, and the server says so.
    expect(stderr.join("")).toContain("EMULATOR MODE");
  });
});

describe("over stdio, connect and disconnect", () => {
  it("20 cycles of connect, run a turn, disconnect: each server exits, leaves no process and prints no stack trace", async () => {
    // A normal disconnect once printed ~90 "Maximum call stack size exceeded" traces (a close() that
    // the transport re-entered while it ran); MCP clients show any stack trace as a crash.
    const cycle = async (index: number): Promise<void> => {
      const { transport, stderr } = builtServerOverStdio();
      const client = new Client({ name: "cycle-client", version: "1.0.0" });
      await client.connect(transport);
      const serverPid = transport.pid;
      expect(serverPid).not.toBeNull();
      const { reply } = await runTurn(client, { message: `cycle ${index}` });
      expect(reply).toContain(`cycle ${index}`);
      await client.close();
      // The SDK's close ends stdin and waits for the server to exit (SIGTERM only after 2 s).
      await expect.poll(() => isProcessAlive(serverPid!), { timeout: 10_000 }).toBe(false);
      expect(stderr.join("")).not.toMatch(/RangeError|\n\s+at |Error: .*\n\s+at /);
    };
    // Two clients at a time, as two editor windows connecting and leaving would.
    await Promise.all(
      [0, 1].map(async (lane) => {
        for (let index = lane * 10; index < lane * 10 + 10; index += 1) await cycle(index);
      }),
    );
    await expectNoChildProcesses();
  }, 180_000);
});

describe("over streamable HTTP", () => {
  async function startServer(options: { maxSessions?: number; shareSessions?: boolean; authTokens?: string[]; allowedOrigins?: string[] } = {}): Promise<{ registry: SessionRegistry; http: HttpMcpServer }> {
    const registry = new SessionRegistry({
      settings: {
        model: "emulator:demo",
        emulator: true,
        workspaces: [workspace],
        builtinTools: [...DEFAULT_SESSION_BUILTIN_TOOLS],
        approval: "ask",
        maxSessions: options.maxSessions ?? 8,
        turnTimeoutMs: 120_000,
        storageDirectory: undefined,
        ...(options.shareSessions === undefined ? {} : { shareSessions: options.shareSessions }),
      },
      binaryPath: emulatorBinPath,
    });
    closers.push(() => registry.close());
    const http = await serveHttp(registry, {
      ...(options.authTokens === undefined ? {} : { authTokens: options.authTokens }),
      ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
    });
    closers.push(() => http.close());
    return { registry, http };
  }

  it("runs, continues, asks through elicitation and closes a session", async () => {
    const { http } = await startServer();
    await driveSessionLifecycle(await connectClient(new StreamableHTTPClientTransport(new URL(http.url)), pickCoffee));
  });

  it("two clients cannot see, continue or close each other's sessions; their conversations share one harness process", async () => {
    const { registry, http } = await startServer();
    const [alice, bob] = await Promise.all([
      connectClient(new StreamableHTTPClientTransport(new URL(http.url)), pickCoffee),
      connectClient(new StreamableHTTPClientTransport(new URL(http.url)), pickCoffee),
    ]);
    const [fromAlice, fromBob] = await Promise.all([runTurn(alice, { message: "alice here" }), runTurn(bob, { message: "bob here" })]);
    const listedBy = async (client: Client) =>
      ((await client.callTool({ name: "list_sessions", arguments: {} })).structuredContent as { sessions: { sessionId: string; lastReply: string }[] }).sessions;
    expect((await listedBy(alice)).map((session) => session.sessionId)).toEqual([fromAlice.sessionId]);
    expect((await listedBy(bob)).map((session) => session.sessionId)).toEqual([fromBob.sessionId]);
    for (const [name, args] of [["run_turn", { sessionId: fromAlice.sessionId, message: "recap" }], ["close_session", { sessionId: fromAlice.sessionId }]] as const) {
      const refused = await bob.callTool({ name, arguments: args });
      expect(refused.isError, name).toBe(true);
      // The same answer as for a session that does not exist: an id says nothing of whose it is.
      expect(JSON.stringify(refused.content), name).toContain("SESSION_NOT_FOUND");
      expect(JSON.stringify(refused.content), name).not.toContain("alice here");
    }
    expect(registry.get(fromAlice.sessionId).summary().turns).toBe(1);
    const metrics = registry.pool.metrics();
    expect(metrics.conversations).toBe(2);
    expect(metrics.processes).toBe(1);
  });

  it("clients with the same auth token share their sessions, other tokens and no token get nothing", async () => {
    const [aliceToken, malloryToken] = ["alice-token-0123456789", "mallory-token-012345678"];
    const { http } = await startServer({ authTokens: [aliceToken, malloryToken] });
    const withToken = (token: string) => new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
    const first = await connectClient(withToken(aliceToken));
    const opened = await runTurn(first, { message: "alice here", keepSession: true });
    const second = await connectClient(withToken(aliceToken));
    expect(((await second.callTool({ name: "list_sessions", arguments: {} })).structuredContent as { sessions: { sessionId: string }[] }).sessions.map((session) => session.sessionId)).toEqual([opened.sessionId]);
    expect((await runTurn(second, { sessionId: opened.sessionId, message: "recap" })).reply).toContain('1. "alice here"');
    const mallory = await connectClient(withToken(malloryToken));
    expect(((await mallory.callTool({ name: "list_sessions", arguments: {} })).structuredContent as { sessions: unknown[] }).sessions).toEqual([]);
    expect((await mallory.callTool({ name: "run_turn", arguments: { sessionId: opened.sessionId, message: "recap" } })).isError).toBe(true);
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } };
    expect(await postStatus(http.url, initialize, {})).toBe(401);
    expect(await postStatus(http.url, initialize, { authorization: "Bearer not-a-token-of-this-server" })).toBe(401);
  });

  it("refuses a browser Origin it was not told of (403), and serves its own and the allowed ones", async () => {
    const { http } = await startServer({ allowedOrigins: ["https://app.example"] });
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } };
    expect(await postStatus(http.url, initialize, { origin: "https://evil.example" })).toBe(403);
    expect(await postStatus(http.url, initialize, { origin: "https://app.example" })).toBe(200);
    expect(await postStatus(http.url, initialize, { origin: new URL(http.url).origin })).toBe(200);
  });

  it("with shareSessions, two clients at once from one pool see each other's sessions, all on one harness process", async () => {
    const { registry, http } = await startServer({ shareSessions: true });
    const [alice, bob] = await Promise.all([
      connectClient(new StreamableHTTPClientTransport(new URL(http.url)), pickCoffee),
      connectClient(new StreamableHTTPClientTransport(new URL(http.url)), pickCoffee),
    ]);
    expect(http.clientCount).toBe(2);
    const [fromAlice, fromBob] = await Promise.all([runTurn(alice, { message: "alice here" }), runTurn(bob, { message: "bob here" })]);
    expect(fromAlice.reply).toContain("alice here");
    expect(fromBob.reply).toContain("bob here");
    expect(fromAlice.sessionId).not.toBe(fromBob.sessionId);
    // Bob continues Alice's session: sessions belong to the server, not to a client.
    const continued = await runTurn(bob, { sessionId: fromAlice.sessionId, message: "recap" });
    expect(continued.reply).toContain('1. "alice here"');
    const listed = await alice.callTool({ name: "list_sessions", arguments: {} });
    expect((listed.structuredContent as { sessions: { sessionId: string }[] }).sessions.map((session) => session.sessionId).sort()).toEqual([fromAlice.sessionId, fromBob.sessionId].sort());
    // One turn per session at a time, whoever asks.
    let signalRunning!: () => void;
    const running = new Promise<void>((resolve) => (signalRunning = resolve));
    const longTurn = alice.callTool({ name: "run_turn", arguments: { sessionId: fromBob.sessionId, message: "a turn that streams a while" } }, undefined, { ...callOptions, onprogress: () => signalRunning() });
    await running;
    const busy = await bob.callTool({ name: "run_turn", arguments: { sessionId: fromBob.sessionId, message: "me too" } });
    expect(busy.isError).toBe(true);
    expect(JSON.stringify(busy.content)).toContain("SESSION_BUSY");
    expect((await longTurn).isError).not.toBe(true);
    const metrics = registry.pool.metrics();
    expect(metrics.conversations).toBe(2);
    expect(metrics.processes).toBe(1);
  });

  it("close() on the HTTP server and the registry aborts their signals at once, ends the sessions and resolves closed once the processes are gone", async () => {
    const { registry, http } = await startServer();
    const client = await connectClient(new StreamableHTTPClientTransport(new URL(http.url)));
    const turn = await runTurn(client, { message: "hello", keepSession: true });
    const dropped = registry.get((await runTurn(client, { message: "hello again" })).sessionId);
    const session = registry.get(turn.sessionId);
    const pids = registry.pool.metrics().processDetails.flatMap((detail) => (detail.pid === undefined ? [] : [detail.pid]));
    expect(pids.length).toBeGreaterThan(0);
    const httpClosing = http.close();
    expect(http.signal.aborted).toBe(true);
    await httpClosing;
    await http.closed;
    expect(http.clientCount).toBe(0);
    // The client's connection ended: the session it opened goes with it, the one it kept stays.
    await dropped.closed;
    expect(registry.list()).toEqual([session]);
    expect(session.signal.aborted).toBe(false);
    const registryClosing = registry.close();
    expect(registry.signal.aborted).toBe(true);
    expect(McpServerError.isInstance(registry.signal.reason) && registry.signal.reason.code).toBe("SERVER_CLOSED");
    await registryClosing;
    await registry.closed;
    expect(session.signal.aborted).toBe(true);
    await session.closed;
    for (const pid of pids) expect(isProcessAlive(pid)).toBe(false);
    await expect(registry.create()).rejects.toMatchObject({ code: "SERVER_CLOSED" });
  });

  it("refuses a question with a clear note when the client cannot elicit; past the session limit the idle session makes room", async () => {
    const { http } = await startServer({ maxSessions: 1 });
    const client = await connectClient(new StreamableHTTPClientTransport(new URL(http.url)));
    const turn = await runTurn(client, { message: "ask me to choose between red or blue" });
    expect(turn.reply).toBe("You chose: (cancelled).");
    expect(turn.notes).toEqual([expect.stringContaining("does not support elicitation")]);
    // SESSION_LIMIT only when every session runs a turn (test/expiry.test.ts).
    const next = await runTurn(client, { message: "another session" });
    expect(next.sessionId).not.toBe(turn.sessionId);
  });

  it("prints its version for --version, the one the handshake reports", async () => {
    const output = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [binPath, "--version"], { env: { PATH: process.env["PATH"] ?? "" } }, (error, stdout) => (error === null ? resolve(stdout) : reject(error)));
    });
    expect(output).toBe(`${packageJson.version}\n`);
  });

  it("answers --help through the installed launcher (bin/) at once with exit 0", async () => {
    const launcher = fileURLToPath(new URL("../bin/antigravity-mcp-server.mjs", import.meta.url));
    const startedAt = Date.now();
    const output = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [launcher, "--help"], { env: { PATH: process.env["PATH"] ?? "" } }, (error, stdout) => (error === null ? resolve(stdout) : reject(error)));
    });
    expect(output).toMatch(/^Usage: antigravity-mcp-server/);
    // Generous for a loaded CI machine; it serves nothing and starts no harness.
    expect(Date.now() - startedAt).toBeLessThan(2_000);
  });

  it("answers bad requests with clear errors", async () => {
    const { http } = await startServer();
    const client = await connectClient(new StreamableHTTPClientTransport(new URL(http.url)));
    const invalid = await client.callTool({ name: "run_turn", arguments: { message: "" } });
    expect(invalid.isError).toBe(true);
    expect(JSON.stringify(invalid.content)).toMatch(/message/);
    const unknown = await client.callTool({ name: "close_session", arguments: { sessionId: "nope" } });
    expect(unknown.isError).toBe(true);
    expect(JSON.stringify(unknown.content)).toContain("SESSION_NOT_FOUND");
    const stray = await fetch(http.url, { method: "POST", headers: { "content-type": "application/json", "mcp-session-id": "forged" }, body: "{}" });
    expect(stray.status).toBe(404);
    // A browser page on another origin reaching a local server by DNS rebinding carries its own Host.
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } };
    expect(await postStatus(http.url, initialize, { host: "evil.example" })).toBe(403);
    expect((await fetch(new URL("/other", http.url))).status).toBe(404);
  });
});

/** A POST with headers fetch would not let us set (Host), answering the status. */
function postStatus(url: string, body: unknown, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    outgoing.on("error", reject);
    outgoing.end(JSON.stringify(body));
  });
}
