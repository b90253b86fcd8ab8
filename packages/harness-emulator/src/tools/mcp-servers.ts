import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";

/** The parts of an McpServerConfig the emulator looks at. */
export interface McpServerEntry {
  name?: string;
  stdio?: { command?: string };
  http?: { url?: string };
}

/**
 * Why the harness could not load one of the configured MCP servers, or undefined when all load.
 * The emulator runs no MCP tools, but it reproduces the harness's observable failure: a stdio
 * server whose command does not exist ends the turn with `MCP load failed for <name>: …` (the
 * Python SDK raises that as an error). HTTP servers are not contacted (no network here) and are
 * taken as loaded.
 */
export async function findMcpLoadFailure(servers: readonly McpServerEntry[], pathVariable: string | undefined): Promise<string | undefined> {
  for (const server of servers) {
    const command = server.stdio?.command;
    if (server.stdio === undefined) continue;
    const name = server.name ?? "";
    if (command === undefined || command.trim() === "") return `MCP load failed for ${name}: no command to start`;
    if (!(await isExecutable(command, pathVariable))) {
      return `MCP load failed for ${name}: exec: "${command}": executable file not found in $PATH`;
    }
  }
  return undefined;
}

async function isExecutable(command: string, pathVariable: string | undefined): Promise<boolean> {
  const candidates = isAbsolute(command) || command.includes("/") ? [command] : (pathVariable ?? "").split(delimiter).filter(Boolean).map((directory) => join(directory, command));
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK);
      return true;
    } catch {
      // Not here; try the next directory.
    }
  }
  return false;
}
