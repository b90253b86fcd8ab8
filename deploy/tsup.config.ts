import { defineConfig } from "tsup";

// Not a library: `pnpm cluster` runs dist/cluster-main.js with plain Node; tests and the benchmark
// import dist/index.js (startCluster).
export default defineConfig({
  entry: ["src/cluster-main.ts", "src/index.ts"],
  format: ["esm"],
  dts: false,
  clean: true,
  sourcemap: true,
  target: "node20",
  splitting: false,
});
