import { defineConfig } from "tsup";
import { publishedBuildOptions } from "../../tsup.shared.mjs";

export default defineConfig({ ...publishedBuildOptions, entry: { index: "src/index.ts", client: "src/client/index.ts" } });
