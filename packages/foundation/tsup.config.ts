import { defineConfig } from "tsup";

// Only the declarations are built: one self-contained file that each published package's build
// inlines (tsup.shared.mjs). The code itself is bundled from src by each package's build.
export default defineConfig({ entry: ["src/index.ts"], format: ["esm"], dts: { only: true }, clean: true, target: "node20" });
