import type { Logger } from "@ag-ui-antigravity/foundation";
import { findHarnessBinary } from "@ag-ui-antigravity/harness";
import { emulatorBinaryPath } from "@ag-ui-antigravity/harness-emulator/binary-path";
import { packageVersion } from "../package-version.js";
import { SessionRegistry } from "../sessions/session-registry.js";
import { serveHttp } from "../transports/serve-http.js";
import { serveStdio } from "../transports/serve-stdio.js";
import { normalizeArgv, parseCli, usage } from "./parse-cli.js";

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Resolves when the process is asked to stop (SIGINT / SIGTERM). */
  stopRequested: Promise<unknown>;
}

/** Runs the `antigravity-mcp-server` command; resolves with the exit code. stdout stays MCP-only in stdio mode. */
export async function runCli(argv: readonly string[], env: Record<string, string | undefined>, io: CliIo): Promise<number> {
  const say = (line: string): void => void io.stderr.write(`antigravity-mcp-server: ${line}\n`);
  let command;
  try {
    command = parseCli(normalizeArgv(argv), env, process.cwd());
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
    io.stderr.write(usage);
    return 2;
  }
  if (command.kind === "help") {
    io.stdout.write(usage);
    return 0;
  }
  if (command.kind === "version") {
    io.stdout.write(`${packageVersion}\n`);
    return 0;
  }
  const { settings } = command;
  let binaryPath: string;
  if (settings.emulator) {
    binaryPath = emulatorBinaryPath();
    say("*** EMULATOR MODE ***");
    say(`no GEMINI_API_KEY (or --emulator / an emulator: model): replies come from the Antigravity emulator's scripted "${settings.model}" model, not from Gemini.`);
    say("set GEMINI_API_KEY and install localharness for real agent turns.");
  } else {
    try {
      binaryPath = command.harnessPath ?? (await findHarnessBinary());
    } catch (error) {
      say(error instanceof Error ? error.message : String(error));
      return 1;
    }
  }
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (_fields, message) => say(`warn: ${message ?? ""}`),
    error: (_fields, message) => say(`error: ${message ?? ""}`),
  };
  const registry = new SessionRegistry({ settings, binaryPath, logger });
  say(`model ${settings.model}; workspaces ${settings.workspaces.join(", ")}; builtin tools ${settings.builtinTools.join(", ")}; approval ${settings.approval}`);
  try {
    if (command.transport.type === "stdio") {
      const server = await serveStdio(registry);
      await Promise.race([server.closed, io.stopRequested]);
      await server.close();
    } else {
      const { host, port, clientIdleTimeoutMs, authTokens, allowedOrigins } = command.transport;
      const server = await serveHttp(registry, { host, port, clientIdleTimeoutMs, authTokens, allowedOrigins });
      say(`listening on ${server.url}${authTokens.length > 0 ? " (bearer token required)" : ""}${settings.shareSessions === true ? "; sessions shared by every client" : ""}`);
      await io.stopRequested;
      await server.close();
    }
  } finally {
    await registry.close();
  }
  return 0;
}
