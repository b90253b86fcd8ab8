// Build settings every published package shares: ESM + CJS + types for Node 20. Source maps ship
// without `sourcesContent`: the sources are not published, and inlining them doubled every map.
// `@ag-ui-antigravity/foundation` is private: its code and its types are inlined into each build
// (ARCHITECTURE.md, "The foundation"), so no published package depends on it. Its public
// counterpart `@ag-ui-antigravity/core` is the opposite: a dependency of every published package,
// always external, so one `CodedError` class serves them all (never a copy per package). Members marked
// `@internal` (constructors a package calls itself) are left out of the declarations: their
// parameter types are private, and a user cannot call them usefully.
const foundation = /^@ag-ui-antigravity\/foundation$/;
const core = /^@ag-ui-antigravity\/core$/;

export const publishedBuildOptions = {
  format: ["esm", "cjs"],
  dts: { resolve: [foundation], compilerOptions: { stripInternal: true } },
  clean: true,
  sourcemap: true,
  target: "node20",
  splitting: false,
  noExternal: [foundation],
  external: [core],
  esbuildOptions(options) {
    options.sourcesContent = false;
  },
};
