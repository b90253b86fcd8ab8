#!/usr/bin/env node
import { parseArgs } from "node:util";
import { KNOWN_HARNESS_VERSIONS, NEWEST_KNOWN_HARNESS_VERSION } from "@ag-ui-antigravity/harness/protocol";
import packageJson from "../package.json" with { type: "json" };
import { createStreamLogger } from "./logging/logger.js";
import { runEmulatorProcess, type RunningEmulator } from "./process/run-emulator-process.js";

/** Bound on shutdown: the harness contract is a prompt exit after stdin EOF or SIGTERM. */
const shutdownDeadlineMs = 1500;

const logger = createStreamLogger(process.stderr);

const USAGE = `Usage: localharness-emulator [--harness-version V] [--replay FILE]

A stand-in for Google Antigravity's localharness binary, driven by scripted scenarios. It is started
the way the real binary is: a client (the @ag-ui-antigravity/harness client, the official Python SDK,
genai-rs) writes a length-prefixed InputConfig to its stdin and reads the WebSocket port from its
stdout. Run by hand it just waits for that InputConfig.

Options:
  --harness-version V   the harness release to play, ${KNOWN_HARNESS_VERSIONS[0]} to ${NEWEST_KNOWN_HARNESS_VERSION} (default ${NEWEST_KNOWN_HARNESS_VERSION});
                        env ANTIGRAVITY_EMULATOR_HARNESS_VERSION
  --replay FILE         play a wire recording (ANTIGRAVITY_WIRE_RECORD) instead of scenarios
  --help, -h            print this help
  --version             print this package's version

Scenarios, knobs (ANTIGRAVITY_EMULATOR_*) and the releases it plays: the package README.
To use it as the harness: ANTIGRAVITY_HARNESS_PATH=$(pnpm bin)/localharness-emulator
`;

/** --help and --version answer before anything starts; a person at a terminal is told what the process waits for. */
function answerCommandLine(argv: readonly string[]): boolean {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(USAGE);
    return true;
  }
  if (argv.includes("--version")) {
    process.stdout.write(`${packageJson.version} (harness releases ${KNOWN_HARNESS_VERSIONS[0]}-${NEWEST_KNOWN_HARNESS_VERSION})\n`);
    return true;
  }
  if (process.stdin.isTTY === true) {
    process.stderr.write("localharness-emulator: waiting for a client's InputConfig on stdin (this is not an interactive program; see --help). Ctrl+C to quit.\n");
  }
  return false;
}

/**
 * The command line, as knobs: `--replay <file>` plays a wire recording instead of scenarios;
 * `--harness-version <v>` names the harness release to play. Each sets its environment knob, which
 * `InputConfig.env` still overrides (the emulator README, "Knobs"). Anything else is ignored, as
 * the real binary is started with no arguments.
 */
function argumentKnobs(argv: readonly string[]): Record<string, string> {
  const { values } = parseArgs({
    args: [...argv],
    options: { replay: { type: "string" }, "harness-version": { type: "string" } },
    strict: false,
    allowPositionals: true,
  });
  const knobs: Record<string, string> = {};
  if (typeof values.replay === "string") knobs["ANTIGRAVITY_EMULATOR_REPLAY"] = values.replay;
  if (typeof values["harness-version"] === "string") knobs["ANTIGRAVITY_EMULATOR_HARNESS_VERSION"] = values["harness-version"];
  return knobs;
}

function exitAfterClosing(emulator: RunningEmulator): void {
  const deadline = setTimeout(() => {
    logger.warn("shutdown deadline reached; exiting anyway");
    process.exit(0);
  }, shutdownDeadlineMs);
  deadline.unref();
  void emulator
    .close()
    .catch((error: unknown) => logger.error(`closing failed: ${error instanceof Error ? error.message : String(error)}`))
    .then(() => process.exit(0));
}

async function main(): Promise<void> {
  let running: RunningEmulator | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    logger.info(`received ${signal}`);
    if (running === undefined) process.exit(0);
    else exitAfterClosing(running);
  };
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
  // A closed stdout or stderr (the client went away) must not crash the process with EPIPE. An
  // unhandled stderr error would reach the uncaughtException handler, whose log line fails again:
  // a nextTick storm that starves every timer, the shutdown deadline included.
  process.stdout.on("error", () => undefined);
  process.stderr.on("error", () => undefined);
  try {
    const emulator = await runEmulatorProcess({
      stdin: process.stdin,
      stdout: process.stdout,
      logger,
      env: { ...process.env, ...argumentKnobs(process.argv.slice(2)) },
      processControl: {
        exit: (code) => process.exit(code),
        killSelf: () => process.kill(process.pid, "SIGKILL"),
      },
    });
    running = emulator;
    void emulator.closed.then(() => exitAfterClosing(emulator));
  } catch (error) {
    logger.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}

process.on("uncaughtException", (error) => {
  // Losing a standard stream means the client is gone: there is nobody left to serve.
  if ((error as NodeJS.ErrnoException).code === "EPIPE") process.exit(0);
  // One conversation's bug must not take down the others; log it and carry on.
  logger.error(`uncaught exception: ${error.stack ?? error.message}`);
});

if (!answerCommandLine(process.argv.slice(2))) void main();
