// Shared Vitest settings: every package writes a JSON report that scripts/run-tests.mjs sums,
// and a short teardown so a leaked handle fails loudly instead of hanging the run.
export const sharedTestOptions = {
  reporters: ["default", ["json", { outputFile: ".vitest-report.json" }]],
  teardownTimeout: 5_000,
  testTimeout: 30_000,
  hookTimeout: 30_000,
  pool: "forks",
};
