import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

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
  const sitePackages = dirname(dirname(dirname(dirname(binaryPath))));
  if (basename(dirname(dirname(dirname(binaryPath)))) !== "google" || !existsSync(sitePackages)) return undefined;
  const distInfo = readdirSync(sitePackages).find((entry) => /^google_antigravity-.+\.dist-info$/.test(entry));
  return distInfo === undefined ? undefined : `google-antigravity ${distInfo.replace(/^google_antigravity-/, "").replace(/\.dist-info$/, "")}`;
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
