import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NEWEST_KNOWN_HARNESS_VERSION } from "../protocol/harness-versions.js";
import { installedWheelVersion, resolveHarnessVersion } from "./harness-version.js";

let directory: string;
const savedEnvironment = process.env.ANTIGRAVITY_HARNESS_VERSION;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "harness-version-"));
  delete process.env.ANTIGRAVITY_HARNESS_VERSION;
});

afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
  if (savedEnvironment === undefined) delete process.env.ANTIGRAVITY_HARNESS_VERSION;
  else process.env.ANTIGRAVITY_HARNESS_VERSION = savedEnvironment;
});

/** A pip install's layout: site-packages/google/antigravity/bin/localharness beside google_antigravity-<v>.dist-info. */
async function fakeWheel(version: string): Promise<string> {
  const sitePackages = join(directory, "lib", "python3.11", "site-packages");
  const binary = join(sitePackages, "google", "antigravity", "bin", "localharness");
  await mkdir(join(sitePackages, "google", "antigravity", "bin"), { recursive: true });
  await mkdir(join(sitePackages, `google_antigravity-${version}.dist-info`));
  await writeFile(binary, "#!/bin/sh\n", { mode: 0o755 });
  return binary;
}

describe("resolveHarnessVersion", () => {
  it("takes the harnessVersion option first", async () => {
    const binary = await fakeWheel("0.1.14");
    process.env.ANTIGRAVITY_HARNESS_VERSION = "0.1.11";
    expect(resolveHarnessVersion({ explicit: "0.1.18", binaryPath: binary })).toEqual({ version: "0.1.18", source: "option", newerThanKnown: false });
  });

  it("then ANTIGRAVITY_HARNESS_VERSION, from the process options' env before the environment", async () => {
    const binary = await fakeWheel("0.1.14");
    process.env.ANTIGRAVITY_HARNESS_VERSION = "0.1.11";
    expect(resolveHarnessVersion({ env: { ANTIGRAVITY_HARNESS_VERSION: "0.1.12" }, binaryPath: binary })).toMatchObject({ version: "0.1.12", source: "environment" });
    expect(resolveHarnessVersion({ binaryPath: binary })).toMatchObject({ version: "0.1.11", source: "environment" });
  });

  it("then the wheel installed beside the binary", async () => {
    const binary = await fakeWheel("0.1.14");
    expect(installedWheelVersion(binary)).toBe("0.1.14");
    expect(resolveHarnessVersion({ binaryPath: binary })).toEqual({ version: "0.1.14", source: "wheel", newerThanKnown: false });
  });

  it("then the emulator's profile, for the emulator only", () => {
    const env = { ANTIGRAVITY_EMULATOR_HARNESS_VERSION: "0.1.10" };
    expect(resolveHarnessVersion({ env, binaryPath: "/x/harness-emulator/dist/bin.js" })).toMatchObject({ version: "0.1.10", source: "emulator" });
    expect(resolveHarnessVersion({ env, binaryPath: "/usr/local/bin/localharness" })).toMatchObject({ source: "default" });
    expect(resolveHarnessVersion({ binaryPath: "/x/harness-emulator/dist/bin.js" })).toMatchObject({ version: NEWEST_KNOWN_HARNESS_VERSION, source: "emulator" });
  });

  it("else the newest known release", () => {
    expect(resolveHarnessVersion({ binaryPath: join(directory, "localharness") })).toEqual({ version: NEWEST_KNOWN_HARNESS_VERSION, source: "default", newerThanKnown: false });
  });

  it("says when the harness is newer than every known release", async () => {
    const binary = await fakeWheel("0.1.22");
    expect(resolveHarnessVersion({ binaryPath: binary })).toEqual({ version: "0.1.22", source: "wheel", newerThanKnown: true });
  });

  it("refuses a value that is not a version, naming where it came from", () => {
    expect(() => resolveHarnessVersion({ env: { ANTIGRAVITY_HARNESS_VERSION: "latest" }, binaryPath: "/bin/localharness" })).toThrow(/ANTIGRAVITY_HARNESS_VERSION is not a version: "latest"/);
  });
});
