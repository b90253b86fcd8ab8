import { runHarnessCli } from "./harness-cli.js";

// The `antigravity-harness` executable (package.json "bin" goes through bin/antigravity-harness.mjs).
process.exitCode = await runHarnessCli(process.argv.slice(2));
