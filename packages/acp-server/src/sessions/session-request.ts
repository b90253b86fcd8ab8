import { stat } from "node:fs/promises";
import { isAbsolute } from "node:path";
import type { McpServer } from "@ag-ui-antigravity/harness";
import type { McpServer as AcpMcpServer } from "@agentclientprotocol/sdk";
import { AcpServerError } from "./acp-server-error.js";
import type { SessionOpenConfig } from "./acp-session.js";

/** MCP servers one session may bring; more is refused (each is a process or a connection). */
const MAX_MCP_SERVERS = 32;
/** Workspace roots one session may name besides its cwd. */
const MAX_ADDITIONAL_DIRECTORIES = 32;
const MCP_SERVER_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

async function assertDirectory(path: string, what: string): Promise<void> {
  if (!isAbsolute(path)) throw new AcpServerError("INVALID_REQUEST", `${what} must be an absolute path, not ${JSON.stringify(path)}.`);
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory() !== true) throw new AcpServerError("INVALID_REQUEST", `${what} ${JSON.stringify(path)} is not a directory.`);
}

const pairs = (entries: readonly { name: string; value: string }[]): Record<string, string> => Object.fromEntries(entries.map((entry) => [entry.name, entry.value]));

/**
 * A client's MCP server as the harness's: stdio servers with their command, arguments and
 * environment; HTTP servers with their URL and headers. SSE servers are refused (`initialize`
 * does not offer them: the harness speaks streamable HTTP).
 */
export function harnessMcpServer(server: AcpMcpServer): McpServer {
  if (!MCP_SERVER_NAME.test(server.name)) throw new AcpServerError("INVALID_REQUEST", `MCP server names are 1-64 letters, digits, _ . -; ${JSON.stringify(server.name)} is not.`);
  if ("type" in server && server.type === "sse") throw new AcpServerError("INVALID_REQUEST", `MCP server ${server.name} uses SSE, which this agent does not support; use streamable HTTP.`);
  if ("type" in server && server.type === "http") return { name: server.name, url: server.url, headers: pairs(server.headers) };
  const stdio = server as Extract<AcpMcpServer, { command: string }>;
  return { name: stdio.name, command: stdio.command, args: [...stdio.args], env: pairs(stdio.env) };
}

/** Checks the working directory, the extra roots and the MCP servers of a `session/new` or `session/load`. */
export async function sessionOpenConfig(request: { cwd: string; additionalDirectories?: string[] | undefined; mcpServers: readonly AcpMcpServer[] }): Promise<SessionOpenConfig> {
  const additional = request.additionalDirectories ?? [];
  if (additional.length > MAX_ADDITIONAL_DIRECTORIES) throw new AcpServerError("INVALID_REQUEST", `At most ${MAX_ADDITIONAL_DIRECTORIES} additional directories.`);
  if (request.mcpServers.length > MAX_MCP_SERVERS) throw new AcpServerError("INVALID_REQUEST", `At most ${MAX_MCP_SERVERS} MCP servers per session.`);
  await assertDirectory(request.cwd, "cwd");
  for (const directory of additional) await assertDirectory(directory, "An additional directory");
  const mcpServers = request.mcpServers.map(harnessMcpServer);
  const names = new Set<string>();
  for (const server of mcpServers) {
    if (names.has(server.name)) throw new AcpServerError("INVALID_REQUEST", `Two MCP servers are named ${server.name}.`);
    names.add(server.name);
  }
  return { workspaces: [request.cwd, ...additional.filter((directory) => directory !== request.cwd)], mcpServers };
}
