import type { Logger } from "@ag-ui-antigravity/foundation";
import { findHarnessBinary } from "@ag-ui-antigravity/harness";
import { emulatorBinaryPath } from "@ag-ui-antigravity/harness-emulator/binary-path";
import { packageVersion } from "../package-version.js";
import { serveAcp } from "../serve-acp.js";
import { parseCli } from "./parse-cli.js";
import { usage } from "./usage.js";

export interface CliIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Resolves when the process is asked to stop (SIGINT / SIGTERM). */
  stopRequested: Promise<unknown>;
}

/** One line per fact: a field that names the session, then the message (never a stack). */
function stderrLogger(say: (line: string) => void): Logger {
  const line = (level: string) => (fields: Record<string, unknown>, message?: string) => say(`${level}${message ?? ""}${fields["error"] === undefined ? "" : ` (${String(fields["error"])})`}`);
  return { debug: () => undefined, info: line(""), warn: line("warn: "), error: line("error: ") };
}

/**
 * Runs the `antigravity-acp-server` command; resolves with the exit code. stdout carries only ACP
 * messages; everything else goes to stderr, one line at a time.
 */
export async function runCli(argv: readonly string[], env: Record<string, string | undefined>, io: CliIo): Promise<number> {
  const say = (line: string): void => void io.stderr.write(`antigravity-acp-server: ${line}\n`);
  let command;
  try {
    command = parseCli(argv, env, process.cwd());
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
  } else {
    try {
      binaryPath = command.harnessPath ?? (await findHarnessBinary());
    } catch (error) {
      say(error instanceof Error ? error.message : String(error));
      return 1;
    }
  }
  say(`model ${settings.model}; mode ${settings.defaultMode}; sessions kept in ${settings.stateDirectory ?? "a temporary directory (no session/load)"}`);
  let server;
  try {
    server = await serveAcp({ settings, binaryPath, input: io.stdin, output: io.stdout, logger: stderrLogger(say) });
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
    return 1;
  }
  await Promise.race([server.closed, io.stopRequested]);
  await server.close();
  return 0;
}
