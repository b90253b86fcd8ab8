#!/usr/bin/env node
// `pnpm test:live`: every live test, against the real localharness and a Gemini key, each session
// recorded (ANTIGRAVITY_WIRE_RECORD) into fixtures/recordings/live-<date>/, ready to commit after
// a read (docs/protocol.md, "Contributing a recording"). Without a binary or a key it says which is
// missing and runs nothing.
import { fileURLToPath } from "node:url";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { delimiter, join } from "node:path";

const root = fileURLToPath(new URL("..", import.meta.url));
const missing = [];
if (!process.env.GEMINI_API_KEY) missing.push("GEMINI_API_KEY");
const explicit = process.env.ANTIGRAVITY_HARNESS_PATH;
const onPath = (process.env.PATH ?? "").split(delimiter).some((directory) => existsSync(join(directory, "localharness")));
if (explicit === undefined ? !onPath && !pythonWheelBinary() : !existsSync(explicit) || explicit.endsWith(".js")) {
  missing.push("the localharness binary (pip install google-antigravity, or ANTIGRAVITY_HARNESS_PATH)");
}
if (missing.length > 0) {
  console.error(`test:live SKIPPED: needs ${missing.join(" and ")}. Nothing was run.`);
  process.exit(0);
}

const directory = join(root, "fixtures", "recordings", `live-${new Date().toISOString().slice(0, 10)}`);
mkdirSync(directory, { recursive: true });
const environment = { ...process.env, ANTIGRAVITY_WIRE_RECORD: `${directory}/` };
const suites = [
  ["@ag-ui-antigravity/harness", "test/live"],
  ["@ag-ui-antigravity/server", "test/live-gemini.test.ts"],
];
let failed = false;
for (const [project, path] of suites) {
  const result = spawnSync("pnpm", ["--filter", project, "exec", "vitest", "run", path], { cwd: root, env: environment, stdio: "inherit" });
  if (result.status !== 0) failed = true;
}
console.error(`test:live: recordings in ${directory}; read them before committing (prompts, paths and tool results are in them).`);
process.exit(failed ? 1 : 0);

function pythonWheelBinary() {
  const found = spawnSync("python3", ["-c", "import site,os;print('\\n'.join(p for p in site.getsitepackages()+[site.getusersitepackages()] if os.path.exists(os.path.join(p,'google','antigravity','bin','localharness'))))"], { encoding: "utf8", timeout: 5_000 });
  return found.status === 0 && found.stdout.trim() !== "";
}
