import { execFile } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildWheel, descriptorFromSchemas, FakePackageIndex } from "../../test/support/fake-wheel.js";
import { runHarnessCli } from "../cli/harness-cli.js";
import { locateHarnessBinary } from "../process/find-harness-binary.js";
import { resolveHarnessVersion } from "../process/harness-version.js";
import { diagnoseHarness } from "./diagnose-harness.js";
import { installHarness } from "./install-harness.js";
import { PackageIndexError } from "./package-index.js";

const linux = { platform: "linux" as const, arch: "x64" };
let cacheRoot: string;
let cache: string;
let index: FakePackageIndex;

beforeEach(async () => {
  // XDG_CACHE_HOME=cacheRoot puts the harness cache at cache.
  cacheRoot = await mkdtemp(join(tmpdir(), "harness-cache-"));
  cache = join(cacheRoot, "ag-ui-antigravity", "harness");
});

afterEach(async () => {
  await index?.close();
  await rm(cacheRoot, { recursive: true, force: true });
});

async function indexWith(format: "html" | "json", releases: { version: string; platform: string; descriptor?: Uint8Array }[]): Promise<FakePackageIndex> {
  index = await FakePackageIndex.start(format);
  index.serve(
    await Promise.all(
      releases.map(async (release) => ({
        filename: `google_antigravity-${release.version}-py3-none-${release.platform}.whl`,
        body: await buildWheel({ version: release.version, descriptor: release.descriptor }),
      })),
    ),
  );
  return index;
}

describe("antigravity-harness install", () => {
  it("picks this platform's wheel of the newest release, checks it and unpacks an executable harness the client then finds", async () => {
    await indexWith("html", [
      { version: "0.1.20", platform: "manylinux_2_17_x86_64.manylinux2014_x86_64" },
      { version: "0.1.21", platform: "macosx_11_0_arm64" },
      { version: "0.1.21", platform: "manylinux_2_17_aarch64" },
      { version: "0.1.21", platform: "manylinux_2_17_x86_64.manylinux2014_x86_64", descriptor: descriptorFromSchemas("0.1.21") },
      { version: "0.1.22rc1", platform: "manylinux_2_17_x86_64" },
    ]);
    const result = await installHarness({ indexUrl: index.url, cacheDirectory: cache, platform: linux });
    expect(result).toMatchObject({ status: "installed", version: "0.1.21", wheel: "google_antigravity-0.1.21-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl" });
    expect((await stat(result.binary)).mode & 0o111).not.toBe(0);
    expect(result.descriptor).toBe(join(cache, "0.1.21", "localharness_pb2.py"));
    const { stdout } = await promisify(execFile)(result.binary);
    expect(stdout).toBe("localharness 0.1.21\n");
    // Discovery finds it after ANTIGRAVITY_HARNESS_PATH, and knows its version.
    expect(await locateHarnessBinary({ env: { PATH: "" }, cacheDirectory: cache, pythonExecutable: "/nonexistent/python3" })).toEqual({ path: result.binary, source: "antigravity-harness install" });
    expect(resolveHarnessVersion({ binaryPath: result.binary, env: {} })).toMatchObject({ version: "0.1.21", source: "installed" });
  });

  it("reads a PEP 691 JSON index too, and installs a pinned version", async () => {
    await indexWith("json", [
      { version: "0.1.18", platform: "manylinux_2_17_x86_64" },
      { version: "0.1.21", platform: "manylinux_2_17_x86_64" },
    ]);
    expect(await installHarness({ indexUrl: index.url, cacheDirectory: cache, platform: linux, version: "0.1.18" })).toMatchObject({ status: "installed", version: "0.1.18" });
  });

  it("is idempotent, and two installs at once leave one complete version", async () => {
    await indexWith("html", [{ version: "0.1.21", platform: "manylinux_2_17_x86_64" }]);
    const both = await Promise.all([1, 2].map(() => installHarness({ indexUrl: index.url, cacheDirectory: cache, platform: linux })));
    expect(both.map((result) => result.status).sort()).toEqual(["already-installed", "installed"]);
    const again = await installHarness({ indexUrl: index.url, cacheDirectory: cache, platform: linux, version: "0.1.21" });
    expect(again.status).toBe("already-installed");
    expect(await readdir(cache)).toEqual(["0.1.21"]);
  });

  it("refuses a wheel whose checksum does not match, and installs nothing", async () => {
    index = await FakePackageIndex.start("html");
    const body = await buildWheel({ version: "0.1.21" });
    index.serve([{ filename: "google_antigravity-0.1.21-py3-none-manylinux_2_17_x86_64.whl", body, sha256: "0".repeat(64) }]);
    const error = await installHarness({ indexUrl: index.url, cacheDirectory: cache, platform: linux }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PackageIndexError);
    expect((error as Error).message).toMatch(/does not match the index's checksum/);
    expect(await readdir(cache)).toEqual([]);
  });

  it("a download cut short leaves no executable behind", async () => {
    await indexWith("html", [{ version: "0.1.21", platform: "manylinux_2_17_x86_64" }]);
    index.cutDownloadsAt = 100;
    await expect(installHarness({ indexUrl: index.url, cacheDirectory: cache, platform: linux })).rejects.toThrow();
    expect(await readdir(cache)).toEqual([]);
    expect(await locateHarnessBinary({ env: { PATH: "" }, cacheDirectory: cache, pythonExecutable: "/nonexistent/python3" }).catch((error: Error) => error.message)).toMatch(/not found/);
  });

  it("says which platforms a release has when none fits", async () => {
    await indexWith("html", [{ version: "0.1.21", platform: "win_amd64" }]);
    await expect(installHarness({ indexUrl: index.url, cacheDirectory: cache, platform: linux })).rejects.toThrow(/has no wheel for linux x64 \(it has google_antigravity-0\.1\.21-py3-none-win_amd64\.whl\)/);
  });

  it("an unreachable index is one clear line and exit 1, no stack trace", async () => {
    const stderr = capture();
    const stdout = capture();
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const code = await runHarnessCli(["install", "--index-url", `http://127.0.0.1:${closedPort}/simple`], { stdout, stderr, env: { XDG_CACHE_HOME: cache } });
    expect(code).toBe(1);
    expect(stderr.text).toMatch(new RegExp(`^antigravity-harness install: cannot reach the package index at http://127\\.0\\.0\\.1:${closedPort}/simple: .*ECONNREFUSED`));
    expect(stderr.text.trim().split("\n")).toHaveLength(1);
    expect(stderr.text).not.toMatch(/\n\s+at /);
  });
});

describe("antigravity-harness doctor", () => {
  it("lists what the harness has that the client does not know, and passes when the protocols match", async () => {
    await indexWith("html", [{ version: "0.1.21", platform: "manylinux_2_17_x86_64", descriptor: descriptorFromSchemas("0.1.21", { extraField: "future_knob" }) }]);
    await installHarness({ indexUrl: index.url, cacheDirectory: cache, platform: linux });
    const env = { GEMINI_API_KEY: "AIza-not-printed", PATH: "" };
    const drifted = await diagnoseHarness({ env, cacheDirectory: cache });
    expect(drifted.descriptor?.harnessOnly).toEqual(["InitializeConversationEvent.config.futureKnob"]);
    expect(drifted.descriptor?.clientOnly).toEqual([]);
    expect(drifted.problems).toEqual([]);

    await rm(join(cache, "0.1.21"), { recursive: true });
    index.serve([{ filename: "google_antigravity-0.1.21-py3-none-manylinux_2_17_x86_64.whl", body: await buildWheel({ version: "0.1.21", descriptor: descriptorFromSchemas("0.1.21") }) }]);
    await installHarness({ indexUrl: index.url, cacheDirectory: cache, platform: linux });
    const stdout = capture();
    const code = await runHarnessCli(["doctor"], { stdout, stderr: capture(), env: { ...env, XDG_CACHE_HOME: cacheRoot } });
    expect(stdout.text).not.toContain("AIza-not-printed");
    expect(stdout.text).toContain("GEMINI_API_KEY is set");
    expect(stdout.text).toMatch(/descriptor matches the client/);
    expect(stdout.text).toMatch(/version {4}0\.1\.21 \(from the release antigravity-harness install fetched\)/);
    expect(code).toBe(0);
  });

  it("a client that would send what an older harness lacks fails the doctor", async () => {
    await indexWith("html", [{ version: "0.1.10", platform: "manylinux_2_17_x86_64", descriptor: descriptorFromSchemas("0.1.10") }]);
    await installHarness({ indexUrl: index.url, cacheDirectory: cache, platform: linux });
    // Told the harness is 0.1.21 while it is 0.1.10: the client would send fields 0.1.10 lacks.
    const diagnosis = await diagnoseHarness({ env: { GEMINI_API_KEY: "k", PATH: "" }, cacheDirectory: cache, harnessVersion: "0.1.21" });
    expect(diagnosis.descriptor?.clientOnly).toEqual(
      expect.arrayContaining(["InputEvent.userInput (sent in another shape than the harness takes)", "InitializeConversationEvent.config.budgetConfig (the client thinks it came in 0.1.11)"]),
    );
    expect(diagnosis.problems.join(" ")).toMatch(/would send \d+ field\(s\) the harness lacks/);
  });

  it("against the emulator: reports its profile version and needs no key", async () => {
    const emulator = join(tmpdir(), "fake-emulator", "dist", "bin.js");
    const diagnosis = await diagnoseHarness({ binaryPath: emulator, env: { ANTIGRAVITY_EMULATOR_HARNESS_VERSION: "0.1.14" } }).catch((error: Error) => error);
    // The explicit path must exist; a missing one is reported as a problem, not thrown.
    expect(diagnosis).toMatchObject({ problems: [expect.stringMatching(/no harness binary/)] });
  });

  it("--help and --version answer at once with exit 0", async () => {
    const out = capture();
    expect(await runHarnessCli(["--help"], { stdout: out, stderr: capture() })).toBe(0);
    expect(out.text).toMatch(/^Usage: antigravity-harness <command>/);
    const version = capture();
    expect(await runHarnessCli(["--version"], { stdout: version, stderr: capture() })).toBe(0);
    expect(version.text).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

function capture(): NodeJS.WritableStream & { text: string } {
  const sink = {
    text: "",
    write(chunk: string | Uint8Array): boolean {
      sink.text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
      return true;
    },
  };
  return sink as unknown as NodeJS.WritableStream & { text: string };
}
