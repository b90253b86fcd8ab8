import { defineConfig } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";
import { versionDefine } from "./version-define.js";

export default defineConfig({ define: versionDefine, test: { ...sharedTestOptions, include: ["src/**/*.test.ts", "test/**/*.test.ts"] } });
