import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * This package's root directory: the nearest folder with a package.json above this module. The
 * sources (run by the tests) and the bundled `dist/main.js` (run by `pnpm start`) sit at different
 * depths, so paths are found from the root rather than relative to the module.
 */
export function serverPackageRoot(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(directory, "package.json"))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
    directory = parent;
  }
  return directory;
}

/** The emulator scenarios of the demo agents, one JSON file per feature. */
export function scenariosDirectory(): string {
  return join(serverPackageRoot(), "scenarios");
}

/** The skills the autonomous_work agent can look up: one folder with a SKILL.md per skill. */
export function skillsDirectory(): string {
  return join(serverPackageRoot(), "skills");
}

/** Where `pnpm --filter @ag-ui-antigravity/dojo build` puts the dojo. */
export function defaultDojoDistDirectory(): string {
  return join(serverPackageRoot(), "..", "dojo", "dist");
}
