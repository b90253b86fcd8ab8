import { defineConfig } from "tsup";

// An application, not a library: one ESM entry that `pnpm start` runs with plain Node. Workspace
// packages stay external and are loaded from their own dist, like any installed dependency.
export default defineConfig({
  entry: ["src/main.ts"],
  format: ["esm"],
  dts: false,
  clean: true,
  sourcemap: true,
  target: "node20",
  splitting: false,
});
