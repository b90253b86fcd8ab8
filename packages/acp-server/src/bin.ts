#!/usr/bin/env node
import { once } from "node:events";
import { runCli } from "./cli/run-cli.js";

const stopRequested = Promise.race([once(process, "SIGINT"), once(process, "SIGTERM")]);
// An editor that goes away closes our stdout under us: a write then fails (EPIPE), which must end
// the server quietly, not as an uncaught error with a stack.
const stdoutClosed = new Promise<void>((resolve) => process.stdout.once("error", () => resolve()));
runCli(process.argv.slice(2), process.env, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, stopRequested: Promise.race([stopRequested, stdoutClosed]) }).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`antigravity-acp-server: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
