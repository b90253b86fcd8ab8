// MCP servers through the whole stack: emulator (real MCP SDK client) → harness client →
// translator → AntigravityAgent, against a real MCP server built with the MCP SDK.
import { EventType, type BaseEvent } from "@ag-ui/core";
import { mcpTestServerPath, startHttpMcpTestServer } from "@ag-ui-antigravity/testing";
import { describe, expect, it } from "vitest";
import { lastAssistantText, runWith, useAgents, user } from "./support/agent-fixture.js";

const { makeAgent } = useAgents();
const allowMcp = [{ tool: "*", decision: "allow" as const }];
const event = (events: BaseEvent[], type: EventType) => events.find((candidate) => candidate.type === type) as (BaseEvent & Record<string, any>) | undefined;

describe("MCP tools through AntigravityAgent", () => {
  it("streams a stdio MCP tool call as TOOL_CALL_* events naming the server, and the model reads its result", async () => {
    const agent = makeAgent({ mcpServers: [{ name: "calc", command: process.execPath, args: [mcpTestServerPath, "--name", "calc"] }], policies: allowMcp });
    agent.addMessage(user("please add_numbers a: 20, b: 22"));
    const { events } = await runWith(agent);
    const start = event(events, EventType.TOOL_CALL_START);
    expect(start).toMatchObject({ toolCallName: "add_numbers", rawEvent: { mcpTool: { serverName: "calc", toolName: "add_numbers" } } });
    const args = events.filter((candidate) => candidate.type === EventType.TOOL_CALL_ARGS && (candidate as any).toolCallId === start!["toolCallId"]).map((candidate) => (candidate as any).delta).join("");
    expect(JSON.parse(args)).toEqual({ a: 20, b: 22 });
    expect(event(events, EventType.TOOL_CALL_END)?.["toolCallId"]).toBe(start!["toolCallId"]);
    expect(event(events, EventType.TOOL_CALL_RESULT)).toMatchObject({ toolCallId: start!["toolCallId"], content: "20 + 22 = 42" });
    expect(lastAssistantText(agent)).toBe("I called add_numbers on the calc MCP server. It returned: 20 + 22 = 42");
    expect(events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
  });

  it("does the same over streamable HTTP, and reports a server crashing mid-call as a failed tool call", async () => {
    const server = await startHttpMcpTestServer({ name: "web" });
    try {
      const agent = makeAgent({ mcpServers: [{ name: "web", url: server.url }], policies: allowMcp });
      agent.addMessage(user('shout_text "quiet please"'));
      const { events } = await runWith(agent);
      expect(event(events, EventType.TOOL_CALL_START)).toMatchObject({ toolCallName: "shout_text", rawEvent: { mcpTool: { serverName: "web" } } });
      expect(event(events, EventType.TOOL_CALL_RESULT)?.["content"]).toBe("QUIET PLEASE");

      agent.addMessage(user("now crash_server"));
      const crashed = await runWith(agent);
      const result = crashed.events.filter((candidate) => candidate.type === EventType.TOOL_CALL_RESULT).at(-1) as any;
      expect(result.content).toMatch(/^There was an error executing `crash_server`: MCP tool crash_server on server web failed/);
      expect(crashed.events.at(-1)?.type).toBe(EventType.RUN_FINISHED);
      expect(lastAssistantText(agent)).toContain("Error: MCP tool crash_server on server web failed");
    } finally {
      await server.close();
    }
  });

  it("reports a server that cannot load as an MCP failure naming it, not as a model failure", async () => {
    const agent = makeAgent({ mcpServers: [{ name: "dead_server", command: "no-such-mcp-server-binary" }], policies: allowMcp });
    agent.addMessage(user("hello"));
    const { events } = await runWith(agent).catch((error: unknown) => ({ events: [] as BaseEvent[], error }));
    const runError = event(events, EventType.RUN_ERROR);
    expect(runError?.["code"]).toBe("MCP_LOAD_FAILED");
    expect(runError?.["message"]).toMatch(/^The MCP server "dead_server" could not be loaded/);
    expect(runError?.["message"]).not.toContain("model call failed");
  });
});
