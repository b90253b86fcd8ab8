// Sessions across processes and over time, each server driven by the ACP SDK's client over real
// stdio against the emulator: session/load in a new process, two sessions on one pool and the
// session cap, idle expiry, questions per client capability, and connect/disconnect cycles.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, type RequestError } from "@agentclientprotocol/sdk";
import { descendantPids, expectNoChildProcesses, isProcessAlive } from "@ag-ui-antigravity/testing";
import { afterAll, describe, expect, it } from "vitest";
import { binPath, chunkText, eventually, scenarioPath, startAcpClient, stateDirectory, toolUpdates, type AcpTestClient } from "./acp-client.js";

const workspace = mkdtempSync(join(tmpdir(), "acp-workspace-"));
const states: string[] = [];
const freshState = (): string => {
  const directory = stateDirectory();
  states.push(directory);
  return directory;
};
const model = ["--model", `emulator:${scenarioPath}`];
const packageJson = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };

afterAll(async () => {
  await expectNoChildProcesses();
  rmSync(workspace, { recursive: true, force: true });
  for (const directory of states) rmSync(directory, { recursive: true, force: true });
});

const newSession = async (acp: AcpTestClient): Promise<string> => (await acp.connection.agent.request(methods.agent.session.new, { cwd: workspace, mcpServers: [] })).sessionId;
const prompt = (acp: AcpTestClient, sessionId: string, text: string) => acp.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
const reply = async (acp: AcpTestClient, sessionId: string, text: string): Promise<string> => {
  const start = acp.updates.length;
  await prompt(acp, sessionId, text);
  return chunkText(acp.updates.slice(start), sessionId, "agent_message_chunk");
};
/** Closes the client's end and expects a clean exit with no stack trace on stderr. */
const closeCleanly = async (acp: AcpTestClient): Promise<void> => {
  expect(await acp.close()).toBe(0);
  expect(acp.stderr()).not.toMatch(/\n\s+at |Error: .*\n\s+at/);
};

describe("session/load in a new server process", () => {
  it("replays the session's history from its record, then continues the same conversation", async () => {
    const state = freshState();
    const first = await startAcpClient([...model, "--state-dir", state]);
    const sessionId = await newSession(first);
    expect(await reply(first, sessionId, "my first message")).toContain('You said: "my first message"');
    await closeCleanly(first);

    const second = await startAcpClient([...model, "--state-dir", state]);
    expect(second.initialized.agentCapabilities?.loadSession).toBe(true);
    const loaded = await second.connection.agent.request(methods.agent.session.load, { sessionId, cwd: workspace, mcpServers: [] });
    expect(loaded?.modes?.currentModeId).toBe("ask");
    // The replay arrived before the load answered: the user's message, then the agent's reply.
    const replayed = second.updates.filter((notification) => notification.sessionId === sessionId);
    expect(replayed.map((notification) => notification.update.sessionUpdate)).toEqual(["user_message_chunk", "agent_thought_chunk", "agent_message_chunk"]);
    expect(chunkText(replayed, sessionId, "user_message_chunk")).toBe("my first message");
    expect(chunkText(replayed, sessionId, "agent_message_chunk")).toContain('You said: "my first message"');
    // The harness conversation itself continues: the model remembers the first message.
    expect(await reply(second, sessionId, "recap please")).toContain('1. "my first message"');
    await closeCleanly(second);
  });

  it("offers no session/load when nothing is kept (--ephemeral)", async () => {
    const acp = await startAcpClient([...model, "--ephemeral"]);
    expect(acp.initialized.agentCapabilities?.loadSession).toBe(false);
    await closeCleanly(acp);
  });
});

describe("two sessions at once on one pool", () => {
  it("runs both on one harness process, and refuses a session past the cap", async () => {
    const acp = await startAcpClient([...model, "--state-dir", freshState(), "--max-sessions", "2"]);
    const [alice, bob] = await Promise.all([newSession(acp), newSession(acp)]);
    expect(alice).not.toBe(bob);
    const [fromAlice, fromBob] = await Promise.all([reply(acp, alice, "alice here"), reply(acp, bob, "bob here")]);
    expect(fromAlice).toContain('You said: "alice here"');
    expect(fromBob).toContain('You said: "bob here"');
    expect(fromAlice).not.toContain("bob");
    // One server process, one harness process under it, two conversations.
    const harnessProcesses = descendantPids(acp.child.pid!).filter((pid) => isProcessAlive(pid));
    expect(harnessProcesses).toHaveLength(1);
    const refused = await newSession(acp).then(() => undefined, (error: unknown) => error as RequestError);
    expect(refused).toMatchObject({ code: -32603, message: expect.stringContaining("2 open sessions (its limit)"), data: { code: "SESSION_LIMIT" } });
    // Closing one makes room.
    await acp.connection.agent.request(methods.agent.session.close, { sessionId: alice });
    expect(await newSession(acp)).toMatch(/\S/);
    await closeCleanly(acp);
  });
});

describe("idle expiry", () => {
  it("closes an idle session's conversation, and the next prompt reopens it with its history", async () => {
    const acp = await startAcpClient([...model, "--state-dir", freshState(), "--idle-timeout", "1"]);
    const sessionId = await newSession(acp);
    await reply(acp, sessionId, "remember the blue door");
    await eventually(() => acp.stderr().includes(`session ${sessionId} expired after 1 s idle`), "the idle expiry");
    expect(await reply(acp, sessionId, "recap")).toContain('1. "remember the blue door"');
    expect(acp.stderr()).toContain(`session ${sessionId}: reopening its conversation after idle expiry`);
    await closeCleanly(acp);
  });
});

describe("the agent's questions", () => {
  it("become a form for a client that offers elicitation", async () => {
    const acp = await startAcpClient([...model, "--ephemeral"], { capabilities: { elicitation: { form: {} } } });
    acp.answerElicitation = (request) => {
      const properties = (request as { requestedSchema: { properties: Record<string, unknown> } }).requestedSchema.properties;
      return { action: "accept", content: { [Object.keys(properties)[0]!]: "coffee" } };
    };
    const sessionId = await newSession(acp);
    const start = acp.updates.length;
    expect(await reply(acp, sessionId, "ask me to choose between tea, coffee or juice")).toContain("You chose: coffee.");
    expect(acp.elicitations).toHaveLength(1);
    expect(acp.elicitations[0]).toMatchObject({ mode: "form", sessionId, message: expect.stringContaining("Which one do you choose?") });
    expect(toolUpdates(acp.updates.slice(start), sessionId).at(-1)).toMatchObject({ status: "completed", content: [{ content: { text: "Which one do you choose?: coffee" } }] });
    await closeCleanly(acp);
  });

  it("become permission-style choices for a client without elicitation", async () => {
    const acp = await startAcpClient([...model, "--ephemeral"]);
    acp.answerPermission = (request) => ({ outcome: { outcome: "selected", optionId: request.options.find((option) => option.name === "juice")!.optionId } });
    const sessionId = await newSession(acp);
    expect(await reply(acp, sessionId, "ask me to choose between tea, coffee or juice")).toContain("You chose: juice.");
    expect(acp.permissionRequests[0]?.options.map((option) => option.name)).toEqual(["tea", "coffee", "juice", "Skip this question"]);
    // Several choices do not fit permission options: the question is shown as text instead.
    const several = await reply(acp, sessionId, "pick some toppings");
    expect(several).toContain("answer it in your next message:\n- Which toppings? (one or more of: cheese, olives, basil)");
    expect(several).toContain("You chose: (cancelled).");
    expect(acp.permissionRequests).toHaveLength(1);
    await closeCleanly(acp);
  });
});

describe("connect and disconnect", () => {
  it("20 cycles of connect, (open a session,) disconnect leave nothing running and print no stack trace", async () => {
    const state = freshState();
    const cycle = async (index: number): Promise<void> => {
      const acp = await startAcpClient([...model, "--state-dir", state]);
      // Every other cycle opens a session, whose harness process must stop with the server, and
      // every fourth also runs a turn; the others connect, initialize and go.
      if (index % 2 === 0) {
        const sessionId = await newSession(acp);
        if (index % 4 === 0) await prompt(acp, sessionId, `cycle ${index}`);
      }
      const pids = descendantPids(acp.child.pid!);
      expect(pids.length).toBe(index % 2 === 0 ? 1 : 0);
      await closeCleanly(acp);
      for (const pid of pids) expect(isProcessAlive(pid)).toBe(false);
    };
    // Two clients at a time, as an editor reconnecting while another window disconnects would.
    await Promise.all([0, 1].map(async (lane) => {
      for (let index = lane * 10; index < lane * 10 + 10; index += 1) await cycle(index);
    }));
    await expectNoChildProcesses();
  }, 120_000);

  it("answers --help and --version at once, starting nothing", async () => {
    const run = (flag: string) =>
      new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
        execFile(process.execPath, [binPath, flag], { env: { PATH: process.env["PATH"] ?? "" }, timeout: 10_000 }, (error, stdout, stderr) => (error === null ? resolve({ stdout, stderr }) : reject(error)));
      });
    const help = await run("--help");
    expect(help.stdout).toContain("Usage: antigravity-acp-server");
    expect(help.stderr).toBe("");
    expect((await run("--version")).stdout).toBe(`${packageJson.version}\n`);
  });
});
