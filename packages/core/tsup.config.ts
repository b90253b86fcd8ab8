import { defineConfig } from "tsup";
import { publishedBuildOptions } from "../../tsup.shared.mjs";

export default defineConfig({ ...publishedBuildOptions, entry: ["src/index.ts"] });
