import { defineConfig } from "tsup";

export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  splitting: false,
  // import.meta.url (used to find the emulator package) gets a CommonJS equivalent in the CJS build.
  shims: true,
});
