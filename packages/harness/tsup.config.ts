import { defineConfig } from "tsup";
import { publishedBuildOptions } from "../../tsup.shared.mjs";

export default defineConfig([
  { ...publishedBuildOptions, entry: ["src/index.ts", "src/protocol.ts"] },
  // The antigravity-harness executable: one ESM file, run through bin/antigravity-harness.mjs, never imported.
  { ...publishedBuildOptions, entry: { cli: "src/cli/bin.ts" }, format: ["esm"], dts: false, clean: false },
]);
