import { defineConfig } from "vite";

// The feature routes the dojo POSTs to. In production apps/server serves the dojo itself, so every
// URL is same-origin; in `pnpm dev` Vite forwards these paths to a running server instead.
const featureRoutes = [
  "agentic_chat",
  "backend_tool_rendering",
  "human_in_the_loop",
  "tool_based_generative_ui",
  "shared_state",
  "agentic_generative_ui",
  "tool_approval",
  "questions",
];
const serverUrl = process.env["DOJO_SERVER_URL"] ?? "http://127.0.0.1:8027";

export default defineConfig({
  // No React plugin: esbuild's automatic JSX runtime is all the build needs (dev loses Fast Refresh only).
  esbuild: { jsx: "automatic" },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      output: {
        // Libraries change far less often than the app, so they get their own cacheable chunks.
        manualChunks(id) {
          if (/node_modules\/(\.pnpm\/)?(react|react-dom|scheduler)[@/]/.test(id)) return "react";
          if (id.includes("node_modules")) return "agui-client";
          return undefined;
        },
      },
    },
  },
  server: {
    // /metrics says whether the server runs the emulator (the page's "scripted replies" note).
    proxy: Object.fromEntries([...featureRoutes, "metrics"].map((route) => [`/${route}`, { target: serverUrl, changeOrigin: true }])),
  },
});
