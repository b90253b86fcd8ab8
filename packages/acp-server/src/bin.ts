#!/usr/bin/env node
import { once } from "node:events";
import { parseArgs } from "node:util";
import { usage } from "./cli/usage.js";
import { packageVersion } from "./package-version.js";

// --help and --version answer before anything else is loaded (the ACP SDK and the harness client
// take half a second to import); everything else is run-cli's, loaded only to serve.
const { values } = parseArgs({ args: process.argv.slice(2), strict: false, options: { help: { type: "boolean" }, version: { type: "boolean" } } });
if (values.help === true) {
  process.stdout.write(usage);
} else if (values.version === true) {
  process.stdout.write(`${packageVersion}\n`);
} else {
  const stopRequested = Promise.race([once(process, "SIGINT"), once(process, "SIGTERM")]);
  // An editor that goes away closes our stdout under us: a write then fails (EPIPE), which must end
  // the server quietly, not as an uncaught error with a stack.
  const stdoutClosed = new Promise<void>((resolve) => process.stdout.once("error", () => resolve()));
  try {
    const { runCli } = await import("./cli/run-cli.js");
    const code = await runCli(process.argv.slice(2), process.env, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, stopRequested: Promise.race([stopRequested, stdoutClosed]) });
    process.exit(code);
  } catch (error) {
    process.stderr.write(`antigravity-acp-server: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
