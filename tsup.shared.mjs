// Build settings every published package shares: ESM + CJS + types for Node 20. Source maps ship
// without `sourcesContent`: the sources are not published, and inlining them doubled every map.
export const publishedBuildOptions = {
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
  splitting: false,
  esbuildOptions(options) {
    options.sourcesContent = false;
  },
};
