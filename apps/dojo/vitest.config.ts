import { defineConfig } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

// The browser tests share one Chromium and one stand-in server, so they run in a single file, in order.
export default defineConfig({
  test: { ...sharedTestOptions, include: ["test/**/*.test.ts"], testTimeout: 30_000, fileParallelism: false },
});
