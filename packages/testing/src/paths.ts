import { fileURLToPath } from "node:url";
import { join } from "node:path";

/** The monorepo root, wherever the test runs from. */
export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

/** The built emulator executable. Tests that spawn it need `turbo` to build the emulator first. */
export const emulatorBinPath = join(repoRoot, "packages", "harness-emulator", "dist", "bin.js");

/** The single home of shared fixtures. */
export const fixturesDir = join(repoRoot, "fixtures");
