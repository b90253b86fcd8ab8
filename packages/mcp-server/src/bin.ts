#!/usr/bin/env node
import { once } from "node:events";
import { runCli } from "./cli/run-cli.js";

const stopRequested = Promise.race([once(process, "SIGINT"), once(process, "SIGTERM")]);
runCli(process.argv.slice(2), process.env, { stdout: process.stdout, stderr: process.stderr, stopRequested }).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`antigravity-mcp-server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
