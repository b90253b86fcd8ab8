import { defineConfig } from "vitest/config";
import { sharedTestOptions } from "../vitest.shared.mjs";

export default defineConfig({
  test: {
    ...sharedTestOptions,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Each cluster file starts Redis, HAProxy and several servers: one file at a time.
    fileParallelism: false,
    testTimeout: 240_000,
    hookTimeout: 300_000,
  },
});
