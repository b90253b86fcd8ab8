import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** The Debian packages the cluster runs, by the executable each provides. */
export const clusterExecutables = { "redis-server": "redis-server", haproxy: "haproxy" } as const;
export type ClusterExecutable = keyof typeof clusterExecutables;

/** Debian puts daemons in sbin, which a non-root PATH often lacks. */
const extraDirectories = ["/usr/sbin", "/usr/local/sbin", "/sbin"];

export function findExecutable(name: string, path = process.env["PATH"] ?? ""): string | undefined {
  for (const directory of [...path.split(delimiter).filter((entry) => entry !== ""), ...extraDirectories]) {
    const candidate = join(directory, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export class SystemPackageError extends Error {
  override readonly name = "SystemPackageError";
}

/**
 * The paths of redis-server and haproxy, installed with apt-get first when missing (as `.ci/run`
 * does for Chromium). Throws a SystemPackageError naming the command to run when that fails.
 */
export function ensureClusterExecutables(log: (message: string) => void): Record<ClusterExecutable, string> {
  const names = Object.keys(clusterExecutables) as ClusterExecutable[];
  const missing = names.filter((name) => findExecutable(name) === undefined);
  if (missing.length > 0) {
    const packages = missing.map((name) => clusterExecutables[name]);
    log(`installing ${packages.join(" and ")} with apt-get (missing: ${missing.join(", ")})`);
    const install = (): boolean => spawnSync("apt-get", ["install", "-y", "-qq", ...packages], { stdio: "inherit" }).status === 0;
    if (!install()) {
      spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
      if (!install()) {
        throw new SystemPackageError(`Could not install ${packages.join(" and ")}; install them yourself (sudo apt-get install -y ${packages.join(" ")}) and run again.`);
      }
    }
  }
  const found = Object.fromEntries(names.map((name) => [name, findExecutable(name)])) as Record<ClusterExecutable, string | undefined>;
  const stillMissing = names.filter((name) => found[name] === undefined);
  if (stillMissing.length > 0) throw new SystemPackageError(`${stillMissing.join(" and ")} not found after installing; is /usr/sbin on PATH?`);
  return found as Record<ClusterExecutable, string>;
}
