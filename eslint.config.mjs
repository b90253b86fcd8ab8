// One flat config for the whole workspace, so every package is linted by the same rules.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import importX from "eslint-plugin-import-x";
import nodePlugin from "eslint-plugin-n";

export default tseslint.config(
  {
    ignores: ["**/dist/**", "**/node_modules/**", "**/.turbo/**", "**/coverage/**", "**/*.d.ts", "**/*.d.cts"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,mts,cts,js,mjs}"],
    plugins: { "import-x": importX, n: nodePlugin },
    languageOptions: {
      globals: { process: "readonly", console: "readonly", Buffer: "readonly", URL: "readonly", setTimeout: "readonly", clearTimeout: "readonly", setInterval: "readonly", clearInterval: "readonly", queueMicrotask: "readonly", AbortController: "readonly", AbortSignal: "readonly", TextEncoder: "readonly", TextDecoder: "readonly", structuredClone: "readonly", performance: "readonly", fetch: "readonly" },
    },
    rules: {
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "n/prefer-node-protocol": "error",
      // Comments cite documents inside the repository (docs/protocol.md, READMEs), never notes a
      // reader of the code does not have: the protocol notes we were given or a numbered rule list.
      "no-warning-comments": ["error", { terms: ["HARNESS_PROTOCOL", "house rule", "../shared", "shared/reference", "shared/protocol", "aesthetics-anchors", "[LIVE]", "§"], location: "anywhere" }],
      // The dependency graph is the layering: every import must be declared by its package.
      // The private foundation is a devDependency that tsup inlines into every build (tsup.shared.mjs).
      "import-x/no-extraneous-dependencies": [
        "error",
        { devDependencies: ["**/*.test.ts", "**/*.test.tsx", "**/test/**", "**/bench/**", "**/*.config.*", "**/scripts/**"], whitelist: ["@ag-ui-antigravity/foundation"] },
      ],
    },
  },
  {
    // Libraries log through an injected logger, never the console.
    files: ["packages/*/src/**/*.ts"],
    ignores: ["**/*.test.ts", "packages/testing/**", "packages/harness-emulator/src/bin.ts"],
    rules: { "no-console": "error" },
  },
  {
    // Packages that accept zod ^3.25 || ^4 (one copy beside @ag-ui/client's zod 3) use the API both
    // serve at "zod/v4"; bare "zod" is v3 in the former.
    files: ["packages/{harness,harness-emulator,agent,express,hitl,mcp-server,pool,translator}/src/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": ["error", { paths: [{ name: "zod", message: 'Import from "zod/v4": it is the same API under zod ^3.25 and ^4.' }] }],
    },
  },
  {
    // The agent's declarations name every AG-UI type through @ag-ui/client, so the one client copy a
    // CopilotKit app has serves both, even where CopilotKit's dependencies bring a second @ag-ui/core.
    // (This block replaces the zod rule above for these files, so it repeats it.)
    files: ["packages/agent/src/**/*.ts", "packages/express/src/client/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "zod", message: 'Import from "zod/v4": it is the same API under zod ^3.25 and ^4.' },
            { name: "@ag-ui/core", message: 'Import from "@ag-ui/client": it re-exports @ag-ui/core, and types from it match the app\'s client.' },
          ],
        },
      ],
    },
  },
  {
    // Tests poke at loosely typed wire payloads; `any` there keeps assertions readable.
    files: ["**/*.test.ts", "**/test/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "@typescript-eslint/no-non-null-assertion": "off" },
  },
);
