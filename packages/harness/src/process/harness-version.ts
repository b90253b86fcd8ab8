import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { installedBinaryVersion } from "../install/harness-cache.js";
import { isHarnessVersion, NEWEST_KNOWN_HARNESS_VERSION, compareHarnessVersions } from "../protocol/harness-versions.js";

/**
 * What a recording says about the harness binary: its file name and, when it can be told without
 * running it, its version. The Python wheel keeps the binary at
 * `site-packages/google/antigravity/bin/localharness` next to a `google_antigravity-<version>.dist-info`;
 * a Node script (the emulator) belongs to the nearest package.json above it.
 */
export function describeHarnessBinary(binaryPath: string): { binary: string; version: string } {
  const binary = basename(binaryPath);
  try {
    return { binary, version: wheelVersion(binaryPath) ?? scriptPackageVersion(binaryPath) ?? "unknown" };
  } catch {
    return { binary, version: "unknown" };
  }
}

function wheelVersion(binaryPath: string): string | undefined {
  const version = installedWheelVersion(binaryPath);
  return version === undefined ? undefined : `google-antigravity ${version}`;
}

/**
 * The version of the google-antigravity wheel a binary came from, read from the
 * `google_antigravity-<version>.dist-info` folder beside the `google` package that holds it
 * (`site-packages/google/antigravity/bin/localharness`); undefined for a binary found anywhere else.
 */
export function installedWheelVersion(binaryPath: string): string | undefined {
  try {
    const sitePackages = dirname(dirname(dirname(dirname(binaryPath))));
    if (basename(dirname(dirname(dirname(binaryPath)))) !== "google" || !existsSync(sitePackages)) return undefined;
    const distInfo = readdirSync(sitePackages).find((entry) => /^google_antigravity-.+\.dist-info$/.test(entry));
    return distInfo?.replace(/^google_antigravity-/, "").replace(/\.dist-info$/, "");
  } catch {
    return undefined;
  }
}

/** Where the harness version the client speaks came from, in the order they are tried. */
export type HarnessVersionSource = "option" | "environment" | "wheel" | "installed" | "emulator" | "default";

/** The harness version the client will speak to, and why. */
export interface ResolvedHarnessVersion {
  /** The version as learned (may be newer than any known release). */
  readonly version: string;
  /** Where `version` was learned; `default` means nothing said, so the newest known release is assumed. */
  readonly source: HarnessVersionSource;
  /** True when the version is newer than the newest release this client knows. */
  readonly newerThanKnown: boolean;
}

/** The environment variable the emulator reads its protocol profile from. */
export const EMULATOR_VERSION_VARIABLE = "ANTIGRAVITY_EMULATOR_HARNESS_VERSION";

/**
 * Which harness version a process speaks, from, in order: the `harnessVersion` option, the
 * `ANTIGRAVITY_HARNESS_VERSION` environment variable (the process options' `env`, then the
 * process's), the wheel beside the binary (`google_antigravity-<v>.dist-info`), the release
 * `antigravity-harness install` fetched (its install.json), the emulator's
 * profile (its `ANTIGRAVITY_EMULATOR_HARNESS_VERSION` in `env`), else the newest known release.
 * A value that is not `major.minor.patch` throws a TypeError naming where it came from.
 */
export function resolveHarnessVersion(input: {
  explicit?: string | undefined;
  env?: Readonly<Record<string, string | undefined>> | undefined;
  binaryPath: string;
}): ResolvedHarnessVersion {
  const fromEnvironment = input.env?.ANTIGRAVITY_HARNESS_VERSION ?? process.env.ANTIGRAVITY_HARNESS_VERSION;
  const isScript = /\.(c|m)?js$/.test(input.binaryPath);
  const candidates: [HarnessVersionSource, string | undefined][] = [
    ["option", input.explicit],
    ["environment", fromEnvironment === "" ? undefined : fromEnvironment],
    ["wheel", installedWheelVersion(input.binaryPath)],
    ["installed", installedBinaryVersion(input.binaryPath)],
    // The emulator speaks the newest release unless told otherwise, like the client.
    ["emulator", isScript ? (input.env?.[EMULATOR_VERSION_VARIABLE] || process.env[EMULATOR_VERSION_VARIABLE] || NEWEST_KNOWN_HARNESS_VERSION) : undefined],
  ];
  for (const [source, value] of candidates) {
    if (value === undefined || value === "") continue;
    if (!isHarnessVersion(value)) throw new TypeError(`the harness version from ${describeSource(source)} is not a version: ${JSON.stringify(value)}`);
    return { version: value, source, newerThanKnown: compareHarnessVersions(value, NEWEST_KNOWN_HARNESS_VERSION) > 0 };
  }
  return { version: NEWEST_KNOWN_HARNESS_VERSION, source: "default", newerThanKnown: false };
}

/** Where a version came from, as the startup log says it. */
export function describeSource(source: HarnessVersionSource): string {
  switch (source) {
    case "option":
      return "the harnessVersion option";
    case "environment":
      return "ANTIGRAVITY_HARNESS_VERSION";
    case "wheel":
      return "the google-antigravity wheel installed beside the binary";
    case "installed":
      return "the release antigravity-harness install fetched";
    case "emulator":
      return `the emulator's profile (${EMULATOR_VERSION_VARIABLE}, default the newest release)`;
    default:
      return "nothing told it, so the newest release this client knows";
  }
}

function scriptPackageVersion(binaryPath: string): string | undefined {
  if (!/\.(c|m)?js$/.test(binaryPath)) return undefined;
  let directory = dirname(binaryPath);
  for (let depth = 0; depth < 4; depth += 1) {
    const manifest = join(directory, "package.json");
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown; version?: unknown };
      return typeof parsed.name === "string" && typeof parsed.version === "string" ? `${parsed.name} ${parsed.version}` : undefined;
    }
    directory = dirname(directory);
  }
  return undefined;
}
