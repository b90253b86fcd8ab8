import { defineConfig } from "vitest/config";
import { sharedTestOptions } from "../../vitest.shared.mjs";

export default defineConfig({
  test: {
    ...sharedTestOptions,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Every file imports Express and @ag-ui/client; sharing one module graph per worker keeps the
    // run short on a busy machine. Files hold no global state (servers are closed per test).
    isolate: false,
  },
});
