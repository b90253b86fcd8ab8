import { existsSync, readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { compareHarnessVersions, isHarnessVersion } from "../protocol/harness-versions.js";

/*
 * Where `antigravity-harness install` keeps harness binaries: one folder per version under the
 * user's cache, `<cache>/ag-ui-antigravity/harness/<version>/`, holding the binary, the wheel's
 * protocol descriptor (`localharness_pb2.py`) and `install.json`. A folder appears whole (it is
 * renamed into place), so one that exists is complete.
 */

export const BINARY_FILE = process.platform === "win32" ? "localharness.exe" : "localharness";
export const DESCRIPTOR_FILE = "localharness_pb2.py";
export const INSTALL_RECORD_FILE = "install.json";

/** What install.json says about an installed version. */
export interface InstallRecord {
  version: string;
  wheel: string;
  sha256: string;
  indexUrl: string;
  installedAt: string;
}

/** `$XDG_CACHE_HOME` or `~/.cache` (`%LOCALAPPDATA%` on Windows), then `ag-ui-antigravity/harness`. */
export function harnessCacheDirectory(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const base = env.XDG_CACHE_HOME || (process.platform === "win32" ? env.LOCALAPPDATA : undefined) || join(homedir(), ".cache");
  return join(base, "ag-ui-antigravity", "harness");
}

/** The folder of one installed version. */
export function installedVersionDirectory(version: string, cacheDirectory = harnessCacheDirectory()): string {
  return join(cacheDirectory, version);
}

/** Installed versions, newest first (folders that hold a binary). */
export function installedVersions(cacheDirectory = harnessCacheDirectory()): string[] {
  let entries: string[];
  try {
    entries = readdirSync(cacheDirectory);
  } catch {
    return [];
  }
  return entries
    .filter((entry) => isHarnessVersion(entry) && !entry.includes(".tmp") && existsSync(join(cacheDirectory, entry, BINARY_FILE)))
    .sort((left, right) => compareHarnessVersions(right, left));
}

/** The binary of the newest installed version, if any. */
export function newestInstalledBinary(cacheDirectory = harnessCacheDirectory()): string | undefined {
  const newest = installedVersions(cacheDirectory)[0];
  return newest === undefined ? undefined : join(cacheDirectory, newest, BINARY_FILE);
}

/** The version of a binary installed by `antigravity-harness install` (read from its install.json), else undefined. */
export function installedBinaryVersion(binaryPath: string): string | undefined {
  if (basename(binaryPath) !== BINARY_FILE) return undefined;
  try {
    const record = JSON.parse(readFileSync(join(dirname(binaryPath), INSTALL_RECORD_FILE), "utf8")) as Partial<InstallRecord>;
    return typeof record.version === "string" && isHarnessVersion(record.version) ? record.version : undefined;
  } catch {
    return undefined;
  }
}
