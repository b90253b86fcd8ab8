// Runs the built ESM and CJS files under plain Node, outside Vitest's resolver, because the
// STATE_DELTA path depends on fast-json-patch's CommonJS/ESM interop, which only the built files show.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));

const exercise = `
  const translator = new StepTranslator({ ids: sequentialIds() });
  const events = [...translator.updateState({ items: ["a"] }), ...translator.updateState({ items: ["a", "b"] })];
  process.stdout.write(JSON.stringify(events));
`;

const programs = {
  esm: { file: "dist/index.js", source: `import { StepTranslator, sequentialIds } from "./dist/index.js";\n${exercise}`, flag: "--input-type=module" },
  cjs: { file: "dist/index.cjs", source: `const { StepTranslator, sequentialIds } = require("./dist/index.cjs");\n${exercise}`, flag: "--input-type=commonjs" },
};

describe("the built package under plain Node", () => {
  it.each(Object.entries(programs))("%s build emits a snapshot then a JSON Patch delta", (_format, program) => {
    expect(existsSync(`${packageDir}${program.file}`), "build the package first (pnpm build)").toBe(true);
    const output = execFileSync(process.execPath, [program.flag, "--eval", program.source], { cwd: packageDir, encoding: "utf8", timeout: 20_000 });
    expect(JSON.parse(output)).toEqual([
      { type: "STATE_SNAPSHOT", snapshot: { items: ["a"] } },
      { type: "STATE_DELTA", delta: [{ op: "add", path: "/items/1", value: "b" }] },
    ]);
  });
});
