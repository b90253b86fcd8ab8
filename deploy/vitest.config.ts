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
    // The cluster test kills a replica while HttpAgent streams from it. @ag-ui/client (1.0.0) then
    // reports the cut as the run's error (the test checks it), and its stream teardown calls
    // reader.cancel() on the errored body and rethrows the rejection unless it is an AbortError:
    // an unhandled "terminated" (undici's UND_ERR_SOCKET) nobody can catch. Only that one is let by.
    onUnhandledError: (error) => !(error.message === "terminated" && (error as { cause?: { code?: unknown } }).cause?.code === "UND_ERR_SOCKET"),
  },
});
