// One server process, driven by the ACP SDK's client over real stdio against the emulator: a turn
// with text and thoughts, permission at the moment of a file edit (allowed, rejected, always), a
// command with its output, cancel mid-turn, and bad requests.
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methods, type RequestError } from "@agentclientprotocol/sdk";
import { expectNoChildProcesses, mcpTestServerPath } from "@ag-ui-antigravity/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allowOnce, chunkText, pick, scenarioPath, startAcpClient, stateDirectory, toolUpdates, type AcpTestClient } from "./acp-client.js";

const workspace = mkdtempSync(join(tmpdir(), "acp-workspace-"));
const state = stateDirectory();
let acp: AcpTestClient;
let sessionId: string;

beforeAll(async () => {
  acp = await startAcpClient(["--model", `emulator:${scenarioPath}`, "--state-dir", state], { capabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });
  const created = await acp.connection.agent.request(methods.agent.session.new, { cwd: workspace, mcpServers: [] });
  sessionId = created.sessionId;
  expect(created.modes).toMatchObject({ currentModeId: "ask", availableModes: expect.arrayContaining([expect.objectContaining({ id: "accept-edits" })]) });
});

afterAll(async () => {
  expect(await acp.close()).toBe(0);
  expect(acp.stderr()).not.toMatch(/\n\s+at /);
  await expectNoChildProcesses();
  rmSync(workspace, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});

const prompt = (text: string) => acp.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text }] });
/** The updates of this session that arrive from now on. */
const from = () => {
  const start = acp.updates.length;
  return () => acp.updates.slice(start);
};

describe("an ACP session over stdio", () => {
  it("advertises what it does at initialize", () => {
    expect(acp.initialized.agentCapabilities).toMatchObject({
      loadSession: true,
      promptCapabilities: { image: true, embeddedContext: true },
      mcpCapabilities: { http: true, sse: false },
      sessionCapabilities: { close: {} },
    });
    expect(acp.initialized.agentInfo).toMatchObject({ name: "antigravity" });
  });

  it("streams a turn's thoughts and text and ends it", async () => {
    const since = from();
    const response = await prompt("hello there");
    expect(response.stopReason).toBe("end_turn");
    expect(chunkText(since(), sessionId, "agent_thought_chunk")).toContain("I will quote it back");
    expect(chunkText(since(), sessionId, "agent_message_chunk")).toContain('You said: "hello there"');
  });

  it("asks permission for a file edit with its diff, and shows the diff once allowed", async () => {
    writeFileSync(join(workspace, "notes.txt"), "This is a draft.\n");
    acp.answerPermission = allowOnce;
    const asked = acp.permissionRequests.length;
    const since = from();
    expect((await prompt("edit the notes")).stopReason).toBe("end_turn");
    const request = acp.permissionRequests[asked]!;
    expect(request.options.map((option) => option.kind)).toEqual(["allow_once", "allow_always", "reject_once"]);
    expect(request.toolCall).toMatchObject({ kind: "edit", title: `Edit ${join(workspace, "notes.txt")}`, locations: [{ path: join(workspace, "notes.txt") }] });
    expect(request.toolCall.content).toEqual([{ type: "diff", path: join(workspace, "notes.txt"), oldText: "This is a draft.\n", newText: "This is a final.\n" }]);
    const tools = toolUpdates(since(), sessionId);
    // The client heard of the call before it was asked about it.
    expect(tools[0]).toMatchObject({ sessionUpdate: "tool_call", toolCallId: request.toolCall.toolCallId, kind: "edit" });
    expect(tools.at(-1)).toMatchObject({
      sessionUpdate: "tool_call_update",
      toolCallId: request.toolCall.toolCallId,
      status: "completed",
      content: [{ type: "diff", path: join(workspace, "notes.txt"), oldText: "This is a draft.\n", newText: "This is a final.\n" }],
    });
    expect(readFileSync(join(workspace, "notes.txt"), "utf8")).toBe("This is a final.\n");
    expect(chunkText(since(), sessionId, "agent_message_chunk")).toContain("Edit result: Applied 1 edits");
  });

  it("tells the model when the user rejects an edit, and ends the turn cleanly", async () => {
    writeFileSync(join(workspace, "notes.txt"), "This is a draft.\n");
    acp.answerPermission = pick("reject");
    const since = from();
    expect((await prompt("edit the notes")).stopReason).toBe("end_turn");
    expect(toolUpdates(since(), sessionId).at(-1)).toMatchObject({ sessionUpdate: "tool_call_update", status: "failed" });
    expect(chunkText(since(), sessionId, "agent_message_chunk")).toContain("Edit result: Error: The user rejected this tool call");
    expect(readFileSync(join(workspace, "notes.txt"), "utf8")).toBe("This is a draft.\n");
  });

  it("refuses the call when the client cannot answer a permission request (an error), and says why", async () => {
    writeFileSync(join(workspace, "notes.txt"), "This is a draft.\n");
    acp.answerPermission = () => {
      throw new Error("this client shows no permission prompts");
    };
    const since = from();
    expect((await prompt("edit the notes")).stopReason).toBe("end_turn");
    expect(chunkText(since(), sessionId, "agent_message_chunk")).toContain("could not be asked for permission");
    expect(readFileSync(join(workspace, "notes.txt"), "utf8")).toBe("This is a draft.\n");
  });

  it("remembers 'always' for the rest of the session", async () => {
    acp.answerPermission = pick("allow-always");
    const asked = acp.permissionRequests.length;
    await prompt("edit the notes");
    expect(acp.permissionRequests).toHaveLength(asked + 1);
    writeFileSync(join(workspace, "notes.txt"), "Another draft.\n");
    acp.answerPermission = pick("reject");
    const since = from();
    await prompt("edit the notes");
    expect(acp.permissionRequests).toHaveLength(asked + 1);
    expect(readFileSync(join(workspace, "notes.txt"), "utf8")).toBe("Another final.\n");
    expect(toolUpdates(since(), sessionId).at(-1)).toMatchObject({ status: "completed", content: [{ type: "diff", oldText: "Another draft.\n", newText: "Another final.\n" }] });
  });

  it("shows a new file as a diff from nothing", async () => {
    acp.answerPermission = allowOnce;
    const since = from();
    await prompt("create the todo list");
    expect(toolUpdates(since(), sessionId).at(-1)).toMatchObject({ status: "completed", content: [{ type: "diff", path: join(workspace, "todo.txt"), oldText: null, newText: "1. ship it\n" }] });
  });

  it("asks once for a command the harness also confirms, and shows its output", async () => {
    acp.answerPermission = allowOnce;
    const asked = acp.permissionRequests.length;
    const since = from();
    expect((await prompt("run the build")).stopReason).toBe("end_turn");
    expect(acp.permissionRequests).toHaveLength(asked + 1);
    const request = acp.permissionRequests[asked]!;
    expect(request.toolCall).toMatchObject({ kind: "execute", title: "Run `echo building the project; echo build ok`" });
    expect(request.options.find((option) => option.kind === "allow_always")?.name).toContain("`echo` commands");
    const last = toolUpdates(since(), sessionId).at(-1) as { status: string; content: { content: { text: string } }[] };
    expect(last.status).toBe("completed");
    expect(last.content[0]?.content.text).toContain("building the project\nbuild ok");
    expect(chunkText(since(), sessionId, "agent_message_chunk")).toContain("Command said: building the project");
  });

  it("cancels a turn cooperatively: partial output kept, stopReason cancelled", async () => {
    const since = from();
    const running = prompt("stream slowly");
    const full = "This answer streams slowly, a few characters at a time, so that it can be cancelled midway.";
    await new Promise<void>((resolve, reject) => {
      const poll = setInterval(() => {
        if (chunkText(since(), sessionId, "agent_message_chunk").length > 0) {
          clearInterval(poll);
          resolve();
        }
      }, 20);
      running.catch((error: unknown) => {
        clearInterval(poll);
        reject(error);
      });
    });
    await acp.connection.agent.notify(methods.agent.session.cancel, { sessionId });
    expect((await running).stopReason).toBe("cancelled");
    const partial = chunkText(since(), sessionId, "agent_message_chunk");
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(full.length);
    expect(full.startsWith(partial)).toBe(true);
    // The session goes on after a cancel.
    expect((await prompt("still there?")).stopReason).toBe("end_turn");
  });

  it("gives a session the client's MCP servers, and asks before their tools run", async () => {
    const withTools = await acp.connection.agent.request(methods.agent.session.new, {
      cwd: workspace,
      mcpServers: [{ name: "tools", command: process.execPath, args: [mcpTestServerPath], env: [] }],
    });
    acp.answerPermission = allowOnce;
    const asked = acp.permissionRequests.length;
    const start = acp.updates.length;
    await acp.connection.agent.request(methods.agent.session.prompt, { sessionId: withTools.sessionId, prompt: [{ type: "text", text: 'use shout_text with text: "quiet words"' }] });
    expect(acp.permissionRequests[asked]?.toolCall).toMatchObject({ title: "tools: shout_text" });
    expect(acp.permissionRequests[asked]?.options.find((option) => option.kind === "allow_always")?.name).toBe("Always allow tools: shout_text in this session");
    expect(toolUpdates(acp.updates.slice(start), withTools.sessionId).at(-1)).toMatchObject({ status: "completed", content: [{ type: "content", content: { type: "text", text: "QUIET WORDS" } }] });
    await acp.connection.agent.request(methods.agent.session.close, { sessionId: withTools.sessionId });
  });

  it("switches modes: read-only refuses edits without asking", async () => {
    await acp.connection.agent.request(methods.agent.session.setMode, { sessionId, modeId: "read-only" });
    const asked = acp.permissionRequests.length;
    writeFileSync(join(workspace, "notes.txt"), "A draft.\n");
    const since = from();
    await prompt("edit the notes");
    expect(acp.permissionRequests).toHaveLength(asked);
    expect(chunkText(since(), sessionId, "agent_message_chunk")).toContain("read-only mode");
    expect(readFileSync(join(workspace, "notes.txt"), "utf8")).toBe("A draft.\n");
    await acp.connection.agent.request(methods.agent.session.setMode, { sessionId, modeId: "ask" });
  });

  it("answers bad requests with clear errors and stays up", async () => {
    const failure = (work: Promise<unknown>) => work.then(() => undefined, (error: unknown) => error as RequestError);
    const unknown = await failure(acp.connection.agent.request(methods.agent.session.prompt, { sessionId: "no-such-session", prompt: [{ type: "text", text: "hi" }] }));
    expect(unknown).toMatchObject({ code: -32002, data: { sessionId: "no-such-session" } });
    const traversal = await failure(acp.connection.agent.request(methods.agent.session.load, { sessionId: "../../etc/passwd", cwd: workspace, mcpServers: [] }));
    expect(traversal).toMatchObject({ code: -32002 });
    const relative = await failure(acp.connection.agent.request(methods.agent.session.new, { cwd: "relative/dir", mcpServers: [] }));
    expect(relative).toMatchObject({ code: -32602, message: expect.stringContaining("absolute") });
    const sse = await failure(acp.connection.agent.request(methods.agent.session.new, { cwd: workspace, mcpServers: [{ type: "sse", name: "x", url: "http://127.0.0.1:1/", headers: [] }] }));
    expect(sse).toMatchObject({ code: -32602, message: expect.stringContaining("SSE") });
    const badMode = await failure(acp.connection.agent.request(methods.agent.session.setMode, { sessionId, modeId: "yolo" }));
    expect(badMode).toMatchObject({ code: -32602 });
    const empty = await failure(acp.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [] }));
    expect(empty).toMatchObject({ code: -32602, message: expect.stringContaining("empty") });
    const audio = await failure(acp.connection.agent.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "audio", data: "AAAA", mimeType: "audio/wav" }] }));
    expect(audio).toMatchObject({ code: -32602 });
    expect((await prompt("fine after all that")).stopReason).toBe("end_turn");
  });
});
