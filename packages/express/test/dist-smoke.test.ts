import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const packageDir = fileURLToPath(new URL("..", import.meta.url));

// Vitest's resolver hides CJS/ESM interop mistakes, so the built files are loaded by
// plain Node, once per format, through the package's own exports map.
const probe = (load: string) => `${load}.then((binding) => {
  const app = binding.createAntigravityApp({ run() {}, clone() {} });
  const router = binding.createAgentRouter({ chat: { run() {}, clone() {} } });
  console.log(JSON.stringify([typeof app.listen, typeof router, binding.ExpressBindingError.isInstance(new binding.ExpressBindingError("FORBIDDEN", "x"))]));
})`;

describe("the built package", () => {
  it("has been built (turbo runs build before test)", () => {
    expect(existsSync(`${packageDir}/dist/index.js`) && existsSync(`${packageDir}/dist/index.cjs`)).toBe(true);
  });

  it.each([
    ["require", ["-e", probe('Promise.resolve(require("@ag-ui-antigravity/express"))')]],
    ["import", ["--input-type=module", "-e", probe('import("@ag-ui-antigravity/express")')]],
  ])("loads under plain Node with %s", async (_format, args) => {
    const { stdout } = await run(process.execPath, args, { cwd: packageDir });
    expect(JSON.parse(stdout)).toEqual(["function", "function", true]);
  });
});
