#!/usr/bin/env node
import { parseArgs } from "node:util";
import { createStreamLogger } from "./logging/logger.js";
import { runEmulatorProcess, type RunningEmulator } from "./process/run-emulator-process.js";

/** Bound on shutdown: the harness contract is a prompt exit after stdin EOF or SIGTERM. */
const shutdownDeadlineMs = 1500;

const logger = createStreamLogger(process.stderr);

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

void main();
