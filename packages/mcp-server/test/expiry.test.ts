// What MCP clients leave behind expires: an HTTP client that closes (the SDK's client.close() sends
// no DELETE) frees its slot, its sessions close with it unless it asked to keep them, and idle
// sessions expire or make room at the cap. Before, 64 clients that connected and closed made every
// later client get 503 until a restart, and --max-sessions filled with sessions nobody held.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { emulatorBinPath, expectNoChildProcesses } from "@ag-ui-antigravity/testing";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { DEFAULT_SESSION_BUILTIN_TOOLS, SessionRegistry, serveHttp, type HttpMcpServer, type ServeHttpOptions } from "../src/index.js";

const workspace = mkdtempSync(join(tmpdir(), "mcp-expiry-workspace-"));
const closers: (() => Promise<unknown>)[] = [];
const callOptions = { timeout: 120_000, resetTimeoutOnProgress: true };

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

afterAll(async () => {
  await expectNoChildProcesses();
  rmSync(workspace, { recursive: true, force: true });
});

async function startServer(settings: { maxSessions?: number; sessionIdleTimeoutMs?: number; shareSessions?: boolean } = {}, options: ServeHttpOptions = {}): Promise<{ registry: SessionRegistry; http: HttpMcpServer }> {
  const registry = new SessionRegistry({
    settings: {
      model: "emulator:demo",
      emulator: true,
      workspaces: [workspace],
      builtinTools: [...DEFAULT_SESSION_BUILTIN_TOOLS],
      approval: "ask",
      maxSessions: settings.maxSessions ?? 8,
      turnTimeoutMs: 120_000,
      storageDirectory: undefined,
      ...(settings.sessionIdleTimeoutMs === undefined ? {} : { sessionIdleTimeoutMs: settings.sessionIdleTimeoutMs }),
      ...(settings.shareSessions === undefined ? {} : { shareSessions: settings.shareSessions }),
    },
    binaryPath: emulatorBinPath,
  });
  closers.push(() => registry.close());
  const http = await serveHttp(registry, options);
  closers.push(() => http.close());
  return { registry, http };
}

/** An SDK client on `url`; `close()` it to leave as most clients do (no DELETE). */
async function connect(url: string, capabilities: ConstructorParameters<typeof Client>[1] = {}): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: "expiry-test", version: "1.0.0" }, capabilities);
  const transport = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(transport);
  closers.push(() => client.close());
  return { client, transport };
}

async function runTurn(client: Client, args: Record<string, unknown>): Promise<{ sessionId: string }> {
  const result = await client.callTool({ name: "run_turn", arguments: args }, undefined, callOptions);
  expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
  return result.structuredContent as { sessionId: string };
}

async function sessionIds(client: Client): Promise<string[]> {
  const listed = await client.callTool({ name: "list_sessions", arguments: {} });
  return (listed.structuredContent as { sessions: { sessionId: string }[] }).sessions.map((session) => session.sessionId);
}

describe("streamable HTTP clients that go away", () => {
  it("70 clients that connect and close (no DELETE) leave the 71st served at the default cap of 64", async () => {
    const { http } = await startServer();
    for (let index = 0; index < 70; index += 1) {
      const { client } = await connect(http.url);
      await client.close();
    }
    const { client } = await connect(http.url);
    expect(await sessionIds(client)).toEqual([]);
    expect(http.clientCount).toBeLessThanOrEqual(64);
  });

  it("an idle client's transport expires after clientIdleTimeoutMs", async () => {
    const { http } = await startServer({}, { clientIdleTimeoutMs: 300 });
    const { client } = await connect(http.url);
    expect(http.clientCount).toBe(1);
    await client.close();
    await expect.poll(() => http.clientCount, { timeout: 10_000 }).toBe(0);
  });

  it("a client that goes away takes the sessions it opened, except those it asked to keep", async () => {
    const { registry, http } = await startServer({}, { clientIdleTimeoutMs: 300 });
    // The server's own view: a client sees only its own sessions.
    const open = (): string[] => registry.list().map((session) => session.id);
    const first = await connect(http.url);
    const dropped = await runTurn(first.client, { message: "hello there" });
    const kept = await runTurn(first.client, { message: "hello again", keepSession: true });
    expect(open().sort()).toEqual([dropped.sessionId, kept.sessionId].sort());
    // Closed without a DELETE: its transport expires, and its sessions with it.
    await first.client.close();
    await expect.poll(open, { timeout: 10_000 }).toEqual([kept.sessionId]);
    // A DELETE (terminateSession) ends them at once.
    const third = await connect(http.url);
    const ended = await runTurn(third.client, { message: "hello there" });
    await third.transport.terminateSession();
    await expect.poll(open, { timeout: 10_000 }).not.toContain(ended.sessionId);
  });
});

describe("idle sessions", () => {
  it("expire after sessionIdleTimeoutMs", async () => {
    const { http } = await startServer({ sessionIdleTimeoutMs: 300 });
    const { client } = await connect(http.url);
    await runTurn(client, { message: "hello there", keepSession: true });
    await expect.poll(async () => sessionIds(client), { timeout: 10_000 }).toEqual([]);
  });

  it("at --max-sessions, the session idle longest makes room; only when every session is busy is a new one refused", async () => {
    // Shared, so a second client (one that answers questions) can run a turn on the first one's session.
    const { http } = await startServer({ maxSessions: 1, shareSessions: true });
    const { client } = await connect(http.url);
    const older = await runTurn(client, { message: "hello there", keepSession: true });
    const newer = await runTurn(client, { message: "hello again" });
    expect(newer.sessionId).not.toBe(older.sessionId);
    expect(await sessionIds(client)).toEqual([newer.sessionId]);
    // A turn waiting on its client's answer keeps its session busy: then a new session is refused.
    let answer: (() => void) | undefined;
    const asker = new Client({ name: "slow-answer", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
    asker.setRequestHandler(ElicitRequestSchema, async (request) => {
      await new Promise<void>((resolve) => (answer = resolve));
      const field = Object.keys((request.params as { requestedSchema: { properties: object } }).requestedSchema.properties)[0]!;
      return { action: "accept", content: { [field]: "tea" } };
    });
    await asker.connect(new StreamableHTTPClientTransport(new URL(http.url)));
    closers.push(() => asker.close());
    const waiting = asker.callTool({ name: "run_turn", arguments: { sessionId: newer.sessionId, message: "ask me to choose between tea or juice" } }, undefined, callOptions);
    await expect.poll(() => answer !== undefined, { timeout: 20_000 }).toBe(true);
    const refused = await client.callTool({ name: "run_turn", arguments: { message: "another session" } });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain("SESSION_LIMIT");
    answer!();
    expect((await waiting).isError).not.toBe(true);
  });
});
