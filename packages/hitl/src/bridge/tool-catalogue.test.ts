import type { Tool } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import type { CustomTool } from "../harness/harness-shapes.js";
import { SchemaValidator } from "../schema/schema-validator.js";
import { ToolCatalogue, type ToolHandlers } from "./tool-catalogue.js";

const noArguments = { type: "object", properties: {} } as const;
const lookup: CustomTool = { name: "lookup", description: "server lookup", parameters: noArguments, handler: () => "server" };
const clientTool = (name: string): Tool => ({ name, description: `client ${name}`, parameters: noArguments });
const silent: CustomTool = { name: "get_app_context", description: "silent", parameters: noArguments, handler: () => ({}) };

/** Handlers that say which kind of tool each registration came from. */
const handlers: ToolHandlers = {
  serverTool: (tool) => ({ ...tool, description: `server:${tool.name}` }),
  frontendTool: (definition) => ({ ...definition, description: `frontend:${definition.name}`, handler: () => "client" }),
  silentTools: () => [silent],
};

function catalogue(frontendTools = true) {
  const warnings: string[] = [];
  const tools = new ToolCatalogue({ serverTools: [lookup], frontendTools, validator: new SchemaValidator(), logger: { warn: (_fields, message) => void warnings.push(String(message)) } });
  return { tools, warnings };
}

describe("ToolCatalogue", () => {
  it("registers server tools, then client tools a server tool does not shadow, then unshadowed silent tools", () => {
    const { tools, warnings } = catalogue();
    const configured = tools.configure([clientTool("lookup"), clientTool("pick_color"), clientTool("get_app_context")], handlers);
    expect(configured.customTools.map((tool) => tool.description)).toEqual(["server:lookup", "frontend:pick_color", "frontend:get_app_context"]);
    expect([...configured.hostToolNames]).toEqual(["lookup", "pick_color", "get_app_context"]);
    expect([...configured.silentToolNames]).toEqual([]);
    expect(warnings).toEqual(["Client tool lookup is shadowed by the server tool of the same name."]);
    expect([tools.isFrontendTool("lookup"), tools.isFrontendTool("pick_color")]).toEqual([false, true]);
    expect(tools.hostToolNames()).toBe(configured.hostToolNames);
    expect([tools.serverToolParameters("lookup"), tools.serverToolParameters("pick_color")]).toEqual([noArguments, undefined]);
  });

  it("forgets the client tools of an earlier configuration", () => {
    const { tools } = catalogue();
    tools.configure([clientTool("pick_color")], handlers);
    const configured = tools.configure([], handlers);
    expect(tools.isFrontendTool("pick_color")).toBe(false);
    expect([...configured.silentToolNames]).toEqual(["get_app_context"]);
  });

  it("with frontend tools off, registers no client tool and neither checks nor compares them", () => {
    const { tools } = catalogue(false);
    const malformed = { name: "bad name!", description: "", parameters: [] } as unknown as Tool;
    expect(tools.configure([clientTool("pick_color")], handlers).customTools.map((tool) => tool.name)).toEqual(["lookup", "get_app_context"]);
    expect(() => tools.check([malformed])).not.toThrow();
    expect(tools.changed([clientTool("other")])).toBe(false);
    expect(() => catalogue().tools.check([malformed])).toThrow(expect.objectContaining({ code: "INVALID_TOOL_SCHEMA" }));
  });
});
