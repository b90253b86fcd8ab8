// The packed tarball, outside Vitest's resolver — plain Node imports, requires and
// runs it, and the built-in scenarios ship with it.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { reapLeaks, spawnEmulator } from "./support/emulator-driver.js";

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), "..");
let unpacked: string;

beforeAll(() => {
  const destination = mkdtempSync(join(tmpdir(), "emulator-pack-"));
  execFileSync("pnpm", ["pack", "--pack-destination", destination], { cwd: packageDirectory, stdio: "ignore" });
  const tarball = execFileSync("sh", ["-c", `ls ${destination}/*.tgz`], { encoding: "utf8" }).trim();
  execFileSync("tar", ["-xzf", tarball, "-C", destination]);
  unpacked = join(destination, "package");
  // Dependencies come from the workspace install; no registry is involved.
  symlinkSync(join(packageDirectory, "node_modules"), join(unpacked, "node_modules"));
}, 60_000);

afterAll(async () => {
  expect(await reapLeaks()).toEqual({ children: 0, sockets: 0 });
});

it("ships dist, the bin's launcher and the built-in scenarios, with workspace ranges resolved", () => {
  const manifest = JSON.parse(readFileSync(join(unpacked, "package.json"), "utf8"));
  expect(manifest.bin).toEqual({ "localharness-emulator": "./bin/localharness-emulator.mjs" });
  expect(readFileSync(join(unpacked, "bin", "localharness-emulator.mjs"), "utf8").startsWith("#!/usr/bin/env node")).toBe(true);
  // Clients spawn dist/bin.js directly (emulatorBinaryPath()).
  expect(readFileSync(join(unpacked, "dist", "bin.js"), "utf8").startsWith("#!/usr/bin/env node")).toBe(true);
  expect(existsSync(join(unpacked, "scenarios", "demo.json"))).toBe(true);
  expect(JSON.stringify(manifest.dependencies)).not.toMatch(/workspace:|catalog:/);
});

it("imports under ESM and requires under CJS with plain Node", () => {
  const esm = execFileSync(process.execPath, ["--input-type=module", "-e", `import { loadScenario } from ${JSON.stringify(join(unpacked, "dist", "index.js"))}; console.log(loadScenario("demo").name);`], {
    encoding: "utf8",
  });
  expect(esm.trim()).toBe("demo");
  const cjs = execFileSync(process.execPath, ["-e", `const { loadScenario, EmulatorError } = require(${JSON.stringify(join(unpacked, "dist", "index.cjs"))}); console.log(loadScenario("demo").name, typeof EmulatorError.isInstance);`], {
    encoding: "utf8",
  });
  expect(cjs.trim()).toBe("demo function");
});

it("runs the packed binary with the demo scenario as the default", async () => {
  const emulator = await spawnEmulator({ binary: join(unpacked, "dist", "bin.js") });
  try {
    const conversation = await emulator.connect();
    await conversation.init({ models: [{ name: "gemini-3.6-flash", types: ["MODEL_TYPE_TEXT"] }] });
    conversation.say("hello from the tarball");
    const turn = await conversation.untilIdle();
    const answer = turn.filter((message) => message["stepUpdate"]?.state === "STATE_DONE" && message["stepUpdate"].source === "SOURCE_MODEL").at(-1)!;
    expect(answer["stepUpdate"].text).toContain('You said: "hello from the tarball"');
    await conversation.close();
  } finally {
    expect((await emulator.stop()).code).toBe(0);
  }
});
