import { defineConfig } from "vitest/config";
import { sharedTestOptions } from "../vitest.shared.mjs";

export default defineConfig({
  test: {
    ...sharedTestOptions,
    include: ["test/**/*.test.ts"],
    // The fault files spawn emulators, open thousands of sockets and measure this process's heap:
    // run them one at a time so one file's load never makes another's bound fail.
    fileParallelism: false,
    testTimeout: 60_000,
    // Memory cases compare heaps after a full collection.
    execArgv: ["--expose-gc"],
  },
});
