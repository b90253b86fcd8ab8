import { defineConfig } from "vite";

// `npm run dev` serves the page with hot reload and forwards the runtime's path to `npm start`'s server.
export default defineConfig({
  // No React plugin: esbuild's automatic JSX runtime is all the build needs (dev loses Fast Refresh only).
  esbuild: { jsx: "automatic" },
  build: { outDir: "dist", emptyOutDir: true },
  server: { proxy: { "/api/copilotkit": { target: process.env["EXAMPLE_SERVER_URL"] ?? "http://127.0.0.1:4000", changeOrigin: true } } },
});
