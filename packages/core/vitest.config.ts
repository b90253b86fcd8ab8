import { defineConfig } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

export default defineConfig({ test: { ...sharedTestOptions, include: ["src/**/*.test.ts"] } });
