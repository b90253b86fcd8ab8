// serveAcp in process, on a pair of in-memory streams, with the ACP SDK's client on the other end:
// the library's close()/signal/closed contract and what it leaves behind.
import { PassThrough, Readable, Writable } from "node:stream";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { client, methods, ndJsonStream, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";
import { emulatorBinPath, expectClosesOnce, expectNoChildProcesses, isProcessAlive, descendantPids } from "@ag-ui-antigravity/testing";
import { afterAll, describe, expect, it } from "vitest";
import { AcpServerError, DEFAULT_ACP_BUILTIN_TOOLS, serveAcp, validateAcpServerSettings, type AcpServerSettings } from "../src/index.js";

const workspace = mkdtempSync(join(tmpdir(), "acp-workspace-"));
afterAll(async () => {
  await expectNoChildProcesses();
  rmSync(workspace, { recursive: true, force: true });
});

const settings: AcpServerSettings = {
  model: "emulator:demo",
  emulator: true,
  builtinTools: [...DEFAULT_ACP_BUILTIN_TOOLS],
  defaultMode: "ask",
  maxSessions: 4,
  idleTimeoutMs: 60_000,
  turnTimeoutMs: 60_000,
  permissionTimeoutMs: 60_000,
  stateDirectory: undefined,
  systemInstructions: undefined,
};

/** A server on in-memory streams and an initialized SDK client connected to it. */
async function connected() {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const server = await serveAcp({ settings, binaryPath: emulatorBinPath, input: toServer, output: toClient });
  const connection = client({ name: "in-process" }).connect(ndJsonStream(Writable.toWeb(toServer) as WritableStream<Uint8Array>, Readable.toWeb(toClient) as ReadableStream<Uint8Array>));
  await connection.agent.request(methods.agent.initialize, { protocolVersion: PROTOCOL_VERSION, clientCapabilities: {} });
  return { server, connection, toServer };
}

describe("serveAcp", () => {
  it("keeps the close()/signal/closed contract and stops every harness process it started", async () => {
    const { server, connection } = await connected();
    const { sessionId } = await connection.agent.request(methods.agent.session.new, { cwd: workspace, mcpServers: [] });
    expect(sessionId).toMatch(/\S/);
    const harness = descendantPids(process.pid).filter(isProcessAlive);
    expect(harness.length).toBeGreaterThan(0);
    const reason = await expectClosesOnce(server, () => server.close());
    expect(AcpServerError.isInstance(reason) && reason.code).toBe("SERVER_CLOSED");
    for (const pid of harness) expect(isProcessAlive(pid)).toBe(false);
    connection.close();
  });

  it("closes when the client closes its end", async () => {
    const { server, connection, toServer } = await connected();
    await connection.agent.request(methods.agent.session.new, { cwd: workspace, mcpServers: [] });
    toServer.end();
    await server.closed;
    expect(server.signal.aborted).toBe(true);
    connection.close();
  });

  it("refuses settings it cannot run with, naming each field", () => {
    expect(() => validateAcpServerSettings({ ...settings, maxSessions: 0, stateDirectory: "relative" })).toThrow(/maxSessions.*stateDirectory: must be an absolute path/);
  });
});
