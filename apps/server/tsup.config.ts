import { defineConfig } from "tsup";

// An application, not a library: one ESM entry (dist/main.js) that `pnpm start` runs with plain Node;
// the server itself is a chunk the entry imports once it has set up the heap (src/main.ts). Workspace
// packages stay external and are loaded from their own dist, like any installed dependency; the private
// foundation, which has no dist to load, is bundled in (as every published package's build does);
// @ag-ui-antigravity/core is a dependency, so its CodedError stays the one class every package extends.
export default defineConfig({
  entry: ["src/main.ts"],
  format: ["esm"],
  dts: false,
  clean: true,
  sourcemap: true,
  target: "node20",
  splitting: true,
  noExternal: [/^@ag-ui-antigravity\/foundation$/],
});
