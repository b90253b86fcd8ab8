// Packs every publishable package of the workspace into one folder, the way they would be published
// (pnpm pack rewrites workspace: ranges), for the scripts that install them with plain npm.
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const repositoryRoot = fileURLToPath(new URL("../..", import.meta.url));

/** Packs into `destination`; returns each package's manifest and tarball path. */
export function packPublishedPackages(destination) {
  const packagesDir = join(repositoryRoot, "packages");
  const packed = [];
  for (const dir of readdirSync(packagesDir)) {
    const manifest = JSON.parse(readFileSync(join(packagesDir, dir, "package.json"), "utf8"));
    if (manifest.private) continue;
    const output = execFileSync("pnpm", ["pack", "--pack-destination", destination], { cwd: join(packagesDir, dir), encoding: "utf8" });
    packed.push({ manifest, tarball: output.trim().split("\n").pop() });
  }
  return packed;
}
