// The demo server (loaded by main.ts, the entry point `pnpm start` runs): reads the environment, decides
// which harness to use and says why, listens, and shuts everything down on SIGINT / SIGTERM.
import { existsSync } from "node:fs";
import { diagnoseHarness, verdictLine } from "@ag-ui-antigravity/harness";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createDemoServer, defaultShutdownDeadlineMs } from "./app.js";
import { chooseHarness, parseHarnessPreference, type HarnessChoice } from "./harness/harness-choice.js";
import { isLoopbackHost } from "./auth/bearer-tokens.js";
import { createLogger } from "./logging/create-logger.js";
import { defaultDojoDistDirectory } from "./package-paths.js";
import { readServerEnvironment } from "./server-environment.js";
import { releaseYoungGeneration } from "./startup-heap.js";

function describeChoice(choice: HarnessChoice): string {
  if (choice.kind === "real") return `Using the real Antigravity harness with Gemini (${choice.model ?? "the harness's default model"}): ${choice.reason}.`;
  return (
    `Using the harness EMULATOR with scripted demo scenarios (no model, no key needed), because ${choice.reason}. ` +
    "For Gemini: set GEMINI_API_KEY and install the harness (npx antigravity-harness install, or pip install google-antigravity) or set ANTIGRAVITY_HARNESS_PATH."
  );
}

async function main(): Promise<void> {
  const environment = readServerEnvironment(process.env);
  const logger = createLogger({ level: environment.logLevel, pretty: process.stdout.isTTY === true });

  const harness = await chooseHarness({ preference: parseHarnessPreference(environment.harnessPreference), env: process.env });
  if (harness.kind === "real") logger.info({ harness: harness.kind, binaryPath: harness.binaryPath }, describeChoice(harness));
  else logger.warn({ harness: harness.kind, binaryPath: harness.binaryPath }, describeChoice(harness));
  const diagnosis = await diagnoseHarness({ binaryPath: harness.binaryPath, env: process.env });
  (diagnosis.problems.length === 0 ? logger.info.bind(logger) : logger.warn.bind(logger))({ harness: harness.kind }, verdictLine(diagnosis));

  const dojoDistDirectory = environment.dojoDistDirectory ?? defaultDojoDistDirectory();
  if (!existsSync(join(dojoDistDirectory, "index.html"))) {
    logger.warn({ dojoDistDirectory }, "The dojo is not built, so /dojo/ explains how to build it: pnpm --filter @ag-ui-antigravity/dojo build (or pnpm start at the repository root).");
  }

  const demo = await createDemoServer({
    harness,
    logger,
    dojoDistDirectory,
    taskStepDelayMs: environment.taskStepDelayMs,
    state: { saveDir: environment.saveDir, redisUrl: environment.redisUrl, replicaId: environment.replicaId, replicaTtlMs: environment.replicaTtlMs },
    ...(environment.authTokens === undefined ? {} : { authTokens: environment.authTokens }),
    ...(environment.clientLimits ? {} : { clientLimits: false as const }),
    ...(environment.trustProxy === undefined ? {} : { trustProxy: environment.trustProxy }),
  });
  const server = createServer(demo.app);
  if (environment.authTokens === undefined && !isLoopbackHost(environment.host)) {
    // Loud on purpose: anyone who can reach the port runs agents, answers their approvals and reads their threads.
    logger.warn(
      { host: environment.host },
      `LISTENING BEYOND THIS MACHINE WITHOUT AUTHENTICATION: HOST=${environment.host} lets anyone who can reach the port run the agents and approve their tools. Set AUTH_TOKENS=name:token,... (tokens of 16+ characters) to require a bearer token, or HOST=127.0.0.1.`,
    );
  } else if (environment.authTokens !== undefined) {
    logger.info({ principals: [...new Set(environment.authTokens.values())] }, "runs require a bearer token (AUTH_TOKENS)");
  }

  let shuttingDown = false;
  const shutDown = (reason: string, exitCode: number): void => {
    if (shuttingDown) {
      logger.debug({ reason }, "already shutting down");
      return;
    }
    shuttingDown = true;
    logger.info({ reason, deadlineMs: defaultShutdownDeadlineMs }, "shutting down: draining sessions and stopping every harness");
    // The deadline is a promise to whoever sent the signal; past it, exit regardless.
    const hardStop = setTimeout(() => {
      logger.error({ deadlineMs: defaultShutdownDeadlineMs }, "shutdown overran its deadline; exiting anyway");
      process.exit(1);
    }, defaultShutdownDeadlineMs);
    server.close();
    // Closing the agents ends their runs, so open streams finish; the harnesses get what is left of the deadline.
    demo
      .close({ deadlineMs: defaultShutdownDeadlineMs - 1_000 })
      .catch((error: unknown) => logger.error({ err: error }, "shutdown failed"))
      .finally(() => {
        server.closeAllConnections();
        clearTimeout(hardStop);
        logger.info({}, "stopped");
        process.exitCode = exitCode;
        // pino's transport and stdout flush on exit; nothing else should be left running.
        process.exit();
      });
  };
  process.on("SIGINT", () => shutDown("SIGINT", 0));
  process.on("SIGTERM", () => shutDown("SIGTERM", 0));

  server.on("error", (error) => {
    logger.fatal({ err: error, host: environment.host, port: environment.port }, "the server could not listen (another server on this port? set PORT to choose another)");
    shutDown("listen failed", 1);
  });
  server.listen(environment.port, environment.host, () => {
    // The bound port, not the requested one: PORT=0 asks the OS to pick.
    const url = `http://${environment.host}:${(server.address() as AddressInfo).port}`;
    logger.info({ harness: harness.kind, dojo: `${url}/dojo/` }, `listening on ${url}; open the dojo at ${url}/dojo/`);
    releaseYoungGeneration();
  });
}

main().catch((error: unknown) => {
  // Before the logger exists, or when startup itself failed: stderr is all there is.
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
  process.exit(1);
});
