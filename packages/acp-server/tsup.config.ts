import { defineConfig } from "tsup";
import { publishedBuildOptions } from "../../tsup.shared.mjs";
import { versionDefine } from "./version-define.js";

// Two builds side by side, so neither cleans (the package's build script empties dist first).
export default defineConfig([
  { ...publishedBuildOptions, entry: ["src/index.ts"], clean: false, define: versionDefine },
  // The executable is run by path, never imported: ESM, split so that --help loads none of the
  // serving code (bin.ts imports run-cli lazily).
  { ...publishedBuildOptions, entry: ["src/bin.ts"], format: ["esm"], splitting: true, dts: false, clean: false, define: versionDefine },
]);
