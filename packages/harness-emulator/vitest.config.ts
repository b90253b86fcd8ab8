import { defineConfig } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

// Tests here start one or two emulator processes each; on a loaded 2-core runner a start alone can
// take 10–30 s (emulator-driver.ts's stretched deadline), so the hang guard is longer than the shared one.
export default defineConfig({ test: { ...sharedTestOptions, testTimeout: 90_000, include: ["src/**/*.test.ts", "test/**/*.test.ts"] } });
