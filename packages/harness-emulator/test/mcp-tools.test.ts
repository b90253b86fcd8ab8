// MCP servers in the emulator: real servers built with the MCP SDK (packages/testing), over stdio
// and streamable HTTP, driven through a raw WebSocket as every emulator test is.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Ajv } from "ajv";
import { descendantPids, mcpTestServerPath, startHttpMcpTestServer, type HttpMcpTestServer } from "@ag-ui-antigravity/testing";
import { toGenaiStruct } from "@ag-ui-antigravity/harness/protocol";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboundViolations, reapLeaks, spawnEmulator, type EmulatorProcess, type Message, type RawConversation } from "./support/emulator-driver.js";

let emulator: EmulatorProcess;
let httpServer: HttpMcpTestServer;
const conversations: RawConversation[] = [];
const model = { name: "gemini-3.6-flash", types: ["MODEL_TYPE_TEXT"] };
const stdioServer = (name: string) => ({ name, stdio: { command: process.execPath, args: [mcpTestServerPath, "--name", name] } });

async function open(config: Record<string, unknown>): Promise<RawConversation> {
  const conversation = await emulator.connect();
  conversations.push(conversation);
  await conversation.init({ models: [model], ...config });
  return conversation;
}

const steps = (turn: Message[]) => turn.map((message) => message["stepUpdate"]).filter((step) => step !== undefined);
const mcpSteps = (turn: Message[]) => steps(turn).filter((step) => step.mcpTool !== undefined);
const answer = (turn: Message[]): string => steps(turn).filter((step) => step.state === "STATE_DONE" && step.source === "SOURCE_MODEL" && step.target === "TARGET_USER").at(-1)?.text ?? "";
const idle = (turn: Message[]) => turn.filter((message) => message["trajectoryStateUpdate"]?.state === "STATE_FULLY_IDLE").at(-1)?.["trajectoryStateUpdate"];

async function waitUntil(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(async () => {
  emulator = await spawnEmulator();
  httpServer = await startHttpMcpTestServer({ name: "web" });
});

afterAll(async () => {
  await Promise.all(conversations.map((conversation) => conversation.close()));
  await httpServer.close();
  expect((await emulator.stop()).code).toBe(0);
  expect(await reapLeaks()).toEqual({ children: 0, sockets: 0 });
  expect(outboundViolations).toEqual([]);
});

describe("MCP tools in the emulator", () => {
  it("lists a stdio server's tools and calls the one the message names with schema-valid arguments", async () => {
    const conversation = await open({ mcpServers: [stdioServer("calc")] });
    conversation.say("Use add_numbers with a: 2, b: 40");
    const turn = await conversation.untilIdle();
    const [first, ...rest] = mcpSteps(turn);
    expect(first).toMatchObject({ state: "STATE_ACTIVE", source: "SOURCE_MODEL", target: "TARGET_ENVIRONMENT", mcpTool: { serverName: "calc", toolName: "add_numbers" } });
    const args = JSON.parse(first.mcpTool.argumentsJson);
    expect(args).toEqual({ a: 2, b: 40 });
    // The arguments validate against the schema the server itself lists (asked through the SDK's client).
    const client = new Client({ name: "schema-check", version: "1" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [mcpTestServerPath] }));
    const { tools } = await client.listTools();
    await client.close();
    const schema = tools.find((tool) => tool.name === "add_numbers")!.inputSchema;
    expect(new Ajv({ strict: false }).validate(schema, args)).toBe(true);
    expect(rest.at(-1)).toMatchObject({ state: "STATE_DONE", text: "2 + 40 = 42", mcpTool: { serverName: "calc", toolName: "add_numbers" } });
    expect(answer(turn)).toBe("I called add_numbers on the calc MCP server. It returned: 2 + 40 = 42");
    expect(idle(turn)?.error).toBeUndefined();
  });

  it("calls a tool of a streamable HTTP server", async () => {
    const conversation = await open({ mcpServers: [{ name: "web", http: { url: httpServer.url } }] });
    conversation.say('shout_text "hello there"');
    const turn = await conversation.untilIdle();
    expect(mcpSteps(turn).at(-1)).toMatchObject({ state: "STATE_DONE", text: "HELLO THERE", mcpTool: { serverName: "web", toolName: "shout_text", argumentsJson: '{"text":"hello there"}' } });
    expect(answer(turn)).toContain("It returned: HELLO THERE");
  });

  it("tells the hooks and the policy engine which server a tool belongs to", async () => {
    const conversation = await open({
      mcpServers: [stdioServer("calc")],
      enabledHooks: ["LIFECYCLE_HOOK_PRE_TOOL", "LIFECYCLE_HOOK_POST_TOOL"],
      policyConfig: { rules: [{ tool: "shout_text", serverName: "calc", decision: "POLICY_DECISION_DENY", denyReason: "no shouting here" }] },
    });
    conversation.say("add_numbers a: 1, b: 1");
    const preTool = await conversation.next((message) => message["callHookRequest"]?.type === "LIFECYCLE_HOOK_PRE_TOOL");
    expect(preTool["callHookRequest"].preToolArgs).toMatchObject({ toolName: "add_numbers", serverName: "calc", argumentsJson: '{"a":1,"b":1}' });
    conversation.send({ callHookResponse: { requestId: preTool["callHookRequest"].requestId, preToolResult: { decision: "ALLOW", modifiedArgs: toGenaiStruct({ a: 5, b: 6 }) } } });
    const postTool = await conversation.next((message) => message["callHookRequest"]?.type === "LIFECYCLE_HOOK_POST_TOOL");
    expect(postTool["callHookRequest"].postToolArgs).toMatchObject({ toolName: "add_numbers", serverName: "calc", result: "5 + 6 = 11", error: "" });
    conversation.send({ callHookResponse: { requestId: postTool["callHookRequest"].requestId, emptyResult: {} } });
    expect(answer(await conversation.untilIdle())).toContain("5 + 6 = 11");

    conversation.say("shout_text please");
    const turn = await conversation.untilIdle();
    expect(mcpSteps(turn).at(-1)).toMatchObject({ state: "STATE_ERROR", errorMessage: "no shouting here" });
    expect(answer(turn)).toContain("Error: no shouting here");
  });

  it("reports a tool's own error result as an error step the model reads", async () => {
    const conversation = await open({ mcpServers: [stdioServer("calc")] });
    conversation.say("report_failure");
    const turn = await conversation.untilIdle();
    expect(mcpSteps(turn).at(-1)).toMatchObject({ state: "STATE_ERROR", errorMessage: "the tool failed on purpose" });
    expect(answer(turn)).toContain("Error: the tool failed on purpose");
  });

  it("survives a stdio server crashing mid-call: an error step, then the next turn starts the server again", async () => {
    const conversation = await open({ mcpServers: [stdioServer("calc")] });
    conversation.say("crash_server now");
    const turn = await conversation.untilIdle();
    const failed = mcpSteps(turn).at(-1);
    expect(failed.state).toBe("STATE_ERROR");
    expect(failed.errorMessage).toMatch(/^MCP tool crash_server on server calc failed: /);
    expect(idle(turn)?.error).toBeUndefined();
    expect(answer(turn)).toContain("Error: MCP tool crash_server on server calc failed");
    conversation.say("add_numbers a: 3, b: 4");
    expect(answer(await conversation.untilIdle())).toContain("3 + 4 = 7");
  });

  it("survives an HTTP server dying mid-call", async () => {
    const doomed = await startHttpMcpTestServer({ name: "doomed" });
    try {
      const conversation = await open({ mcpServers: [{ name: "doomed", http: { url: doomed.url } }] });
      conversation.say("crash_server");
      const turn = await conversation.untilIdle();
      expect(mcpSteps(turn).at(-1)).toMatchObject({ state: "STATE_ERROR" });
      expect(mcpSteps(turn).at(-1).errorMessage).toMatch(/^MCP tool crash_server on server doomed failed: /);
      // Gone for good: the next turn cannot load it and ends as the harness ends it.
      conversation.say("add_numbers a: 1, b: 2");
      expect(idle(await conversation.untilIdle())?.error).toMatch(/^MCP load failed for doomed: /);
    } finally {
      await doomed.close();
    }
  });

  it("ends the turn with the harness's load failure when a server cannot start or be reached", async () => {
    const missing = await open({ mcpServers: [{ name: "dead_server", stdio: { command: "no-such-mcp-server-binary" } }] });
    missing.say("hello");
    const turn = await missing.untilIdle();
    expect(idle(turn)?.error).toMatch(/^MCP load failed for dead_server: .*ENOENT/);
    expect(answer(turn)).toBe("");
    const unreachable = await open({ mcpServers: [stdioServer("calc"), { name: "nowhere", http: { url: "http://127.0.0.1:9/mcp" } }] });
    unreachable.say("hello");
    expect(idle(await unreachable.untilIdle())?.error).toMatch(/^MCP load failed for nowhere: /);
    const invalid = await open({ mcpServers: [{ name: "neither" }] });
    invalid.say("hello");
    expect(idle(await invalid.untilIdle())?.error).toBe("MCP load failed for neither: neither stdio nor http is set");
  });

  it("offers only enabledTools and never disabledTools", async () => {
    const conversation = await open({ mcpServers: [{ ...stdioServer("calc"), enabledTools: ["add_numbers", "shout_text"], disabledTools: ["shout_text"] }] });
    conversation.say("shout_text loud");
    const turn = await conversation.untilIdle();
    expect(mcpSteps(turn)).toEqual([]);
    expect(answer(turn)).toContain("You said");
  });

  it("stops a conversation's stdio servers when the conversation closes", async () => {
    const before = new Set(descendantPids(emulator.child.pid!));
    const conversation = await open({ mcpServers: [stdioServer("calc")] });
    conversation.say("add_numbers a: 1, b: 1");
    await conversation.untilIdle();
    const started = descendantPids(emulator.child.pid!).filter((pid) => !before.has(pid));
    expect(started.length).toBeGreaterThan(0);
    await conversation.close();
    await waitUntil(() => descendantPids(emulator.child.pid!).every((pid) => !started.includes(pid)), "the MCP server to exit");
  });
});
