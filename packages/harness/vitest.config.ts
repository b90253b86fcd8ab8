import { defineConfig } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

export default defineConfig({
  test: {
    ...sharedTestOptions,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    setupFiles: ["test/support/leak-check-setup.ts"],
    // The integration files mostly wait on emulator processes and timers (one parks a tool for 30 s),
    // so three run side by side even on two cores; that keeps the whole run well under two minutes.
    maxWorkers: 3,
  },
});
