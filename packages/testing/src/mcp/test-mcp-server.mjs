#!/usr/bin/env node
// A small real MCP server built with the MCP SDK, for tests of everything that talks to MCP servers.
// stdio by default; `--http` serves streamable HTTP on 127.0.0.1 at a port the OS picks and prints
// one line, {"url": "..."}, on stdout. `--name <name>` sets the server name it reports.
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

const argv = process.argv.slice(2);
const nameIndex = argv.indexOf("--name");
const serverName = nameIndex >= 0 ? (argv[nameIndex + 1] ?? "test-mcp") : "test-mcp";

function buildServer() {
  const server = new McpServer({ name: serverName, version: "1.0.0" });
  server.registerTool(
    "add_numbers",
    { description: "Adds two numbers and says the sum.", inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => ({ content: [{ type: "text", text: `${a} + ${b} = ${a + b}` }] }),
  );
  server.registerTool(
    "shout_text",
    { description: "Returns the text in capitals.", inputSchema: { text: z.string().min(1) } },
    async ({ text }) => ({ content: [{ type: "text", text: text.toUpperCase() }] }),
  );
  server.registerTool("report_failure", { description: "Always reports a tool error.", inputSchema: {} }, async () => ({
    isError: true,
    content: [{ type: "text", text: "the tool failed on purpose" }],
  }));
  // Dies in the middle of the call, without answering: what a crashing server looks like to its client.
  server.registerTool("crash_server", { description: "Makes the server process exit during the call.", inputSchema: {} }, async () => {
    setTimeout(() => process.exit(3), 0);
    return new Promise(() => undefined);
  });
  return server;
}

if (argv.includes("--http")) {
  const http = createServer(async (request, response) => {
    if (request.url !== "/mcp") {
      response.writeHead(404).end();
      return;
    }
    // Stateless: one server and transport per request, as the SDK documents for simple servers.
    const server = buildServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response);
  });
  http.listen(0, "127.0.0.1", () => {
    const address = http.address();
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${address.port}/mcp` })}\n`);
  });
  // The test owns this process through its stdin: EOF means stop.
  process.stdin.on("end", () => process.exit(0));
  process.stdin.resume();
} else {
  await buildServer().connect(new StdioServerTransport());
  process.stdin.on("end", () => process.exit(0));
}
