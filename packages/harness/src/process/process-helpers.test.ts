import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HarnessError } from "../errors/harness-error.js";
import { HARNESS_PACKAGE_VERSION } from "./package-version.js";
import packageJson from "../../package.json" with { type: "json" };
import { findHarnessBinary } from "./find-harness-binary.js";
import { minimalEnvironment } from "./minimal-environment.js";
import { StderrRing } from "./stderr-ring.js";

const directories: string[] = [];
afterEach(async () => {
  await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

async function executable(directory: string, relative: string): Promise<string> {
  const path = join(directory, relative);
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, "#!/bin/sh\n");
  await chmod(path, 0o755);
  return path;
}

describe("findHarnessBinary", () => {
  it("prefers the explicit path, then ANTIGRAVITY_HARNESS_PATH", async () => {
    const directory = await mkdtemp(join(tmpdir(), "find-"));
    directories.push(directory);
    const explicit = await executable(directory, "explicit/localharness");
    const fromEnv = await executable(directory, "env/localharness");
    expect(await findHarnessBinary({ explicitPath: explicit, env: { ANTIGRAVITY_HARNESS_PATH: fromEnv } })).toBe(explicit);
    expect(await findHarnessBinary({ env: { ANTIGRAVITY_HARNESS_PATH: fromEnv } })).toBe(fromEnv);
  });

  it("finds the binary in a python site-packages directory", async () => {
    const directory = await mkdtemp(join(tmpdir(), "find-"));
    directories.push(directory);
    const binary = await executable(directory, "site/google/antigravity/bin/localharness");
    const fakePython = join(directory, "python3");
    await writeFile(fakePython, `#!/bin/sh\necho '["${join(directory, "missing")}", "${join(directory, "site")}"]'\n`);
    await chmod(fakePython, 0o755);
    expect(await findHarnessBinary({ env: { PATH: "/nonexistent" }, pythonExecutable: fakePython })).toBe(binary);
  });

  it("falls back to PATH", async () => {
    const directory = await mkdtemp(join(tmpdir(), "find-"));
    directories.push(directory);
    const binary = await executable(directory, "bin/localharness");
    expect(await findHarnessBinary({ env: { PATH: join(directory, "bin") }, pythonExecutable: join(directory, "no-python") })).toBe(binary);
  });

  it("throws HARNESS_NOT_FOUND listing every place searched and how to install", async () => {
    const error = await findHarnessBinary({ env: { PATH: "/nowhere-a:/nowhere-b" }, pythonExecutable: "/no/python3" }).catch((caught: unknown) => caught);
    expect(HarnessError.isInstance(error) && error.code).toBe("HARNESS_NOT_FOUND");
    const message = (error as Error).message;
    expect(message).toContain("ANTIGRAVITY_HARNESS_PATH");
    expect(message).toContain("/nowhere-a/localharness");
    expect(message).toContain("/nowhere-b/localharness");
    expect(message).toContain("site-packages");
    expect(message).toContain("pip install google-antigravity");
  });

  it("refuses a missing explicit path instead of silently using another binary", async () => {
    await expect(findHarnessBinary({ explicitPath: "/does/not/exist" })).rejects.toMatchObject({ code: "HARNESS_NOT_FOUND" });
  });
});

describe("minimalEnvironment", () => {
  it("inherits only allow-listed variables and applies overrides", () => {
    const environment = minimalEnvironment({
      source: { PATH: "/bin", HOME: "/home/u", GEMINI_API_KEY: "secret", AWS_SECRET_ACCESS_KEY: "x", LANG: "C" },
      overrides: { EXTRA: "1" },
    });
    expect(environment).toEqual({ PATH: "/bin", HOME: "/home/u", LANG: "C", EXTRA: "1" });
  });
});

describe("StderrRing", () => {
  it("keeps the last lines, joining chunks split mid-line", () => {
    const ring = new StderrRing(2);
    ring.push("first\nsec");
    ring.push("ond\nthird\npart");
    expect(ring.lines()).toEqual(["third", "part"]);
    ring.end();
    expect(ring.lines()).toEqual(["third", "part"]);
  });
});

describe("client version", () => {
  it("matches package.json", () => {
    expect(HARNESS_PACKAGE_VERSION).toBe(packageJson.version);
  });
});
