import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts", "src/bin.ts", "src/emulator-binary-path.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  splitting: false,
  // The scenario loader locates the package's scenarios/ folder through import.meta.url, also in the CJS build.
  shims: true,
});
