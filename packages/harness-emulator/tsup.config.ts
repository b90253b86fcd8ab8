import { defineConfig } from "tsup";
import { publishedBuildOptions } from "../../tsup.shared.mjs";

// Two builds side by side, so neither cleans (the package's build script empties dist first).
// The scenario loader locates the package's scenarios/ folder through import.meta.url, also in the CJS build.
export default defineConfig([
  { ...publishedBuildOptions, entry: ["src/index.ts", "src/emulator-binary-path.ts"], clean: false, shims: true },
  // The executable is run by path, never imported: one ESM file is the whole bin.
  { ...publishedBuildOptions, entry: ["src/bin.ts"], format: ["esm"], dts: false, clean: false, shims: true },
]);
