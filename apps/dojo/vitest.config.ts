import { defineConfig } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

// The browser tests share one Chromium and one server (apps/server, started by the suite), so they
// run in a single file, in order. Their timeouts are generous: other work shares this machine.
// The shared options are typed against the root's vitest, which pnpm resolves with vite 8; this
// package's vitest peers with vite 7, so the identical options are spread as a plain object.
export default defineConfig({
  test: { ...(sharedTestOptions as object), include: ["test/**/*.test.ts"], fileParallelism: false, testTimeout: 90_000, hookTimeout: 60_000 },
});
