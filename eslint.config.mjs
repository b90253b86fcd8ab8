// One flat config for the whole workspace, so every package is linted by the same rules.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import importX, { createNodeResolver } from "eslint-plugin-import-x";
import nodePlugin from "eslint-plugin-n";

/** Where every path in the layering rules starts: `eslint .` also runs from each package's directory. */
const root = import.meta.dirname;

/** A name-based layering rule: imports whose name matches `regex` fail with `message`. */
function forbidImports(...patterns) {
  return {
    "@typescript-eslint/no-restricted-imports": [
      "error",
      { patterns: patterns.map(([regex, message, options = {}]) => ({ regex, message, ...options })) },
    ],
  };
}

function layeringRules() {
  const sourceOf = (...packages) => packages.map((name) => `packages/${name}/src/**/*.{ts,mts,cts,js,mjs}`);
  const harnessImportsNoPackageOfOurs = ["^@ag-ui-antigravity/(?!(core|foundation)$)", "harness imports no package of ours but core: every other package builds on it (ARCHITECTURE.md)."];
  return [
    {
      // core is the lowest public layer: the shared vocabulary, and nothing else of ours.
      files: sourceOf("core"),
      ignores: ["**/*.test.ts"],
      rules: forbidImports(["^@ag-ui-antigravity/", "core imports no package of ours: every published package builds on it (ARCHITECTURE.md)."]),
    },
    {
      files: sourceOf("harness"),
      ignores: ["**/*.test.ts"],
      rules: forbidImports(harnessImportsNoPackageOfOurs, [
        "(^|/)protocol/(parse|messages)\\.js$",
        "the wire client loads the frame parser and the message schemas with its first conversation (conversation.ts, loadOutputEventParser): import their types only, or the idle server builds them at import.",
        { allowTypeImports: true },
      ]),
    },
    {
      // harness/protocol: schemas and codecs, no I/O, nothing from the rest of harness.
      files: ["packages/harness/src/protocol/**/*.ts", "packages/harness/src/protocol.ts"],
      ignores: ["**/*.test.ts"],
      settings: { "import-x/resolver-next": [createNodeResolver({ extensionAlias: { ".js": [".ts", ".js"] } })] },
      rules: {
        ...forbidImports(harnessImportsNoPackageOfOurs, [
          "^(node:)?(fs|fs/promises|net|http|https|http2|tls|dgram|dns|child_process|cluster|worker_threads|readline)$|^ws(/|$)",
          "harness/protocol does no I/O: sockets, processes and files belong to the rest of harness (ARCHITECTURE.md).",
        ]),
        "import-x/no-restricted-paths": [
          "error",
          {
            basePath: root,
            zones: [
              {
                target: ["./packages/harness/src/protocol", "./packages/harness/src/protocol.ts"],
                from: "./packages/harness/src",
                // ProtocolError is a HarnessError by brand (foundation's CodedError), not by import.
                except: ["./protocol"],
                message: "harness/protocol imports nothing from harness outside protocol/ (ARCHITECTURE.md).",
              },
            ],
          },
        ],
      },
    },
    {
      files: sourceOf("pool", "translator", "hitl"),
      ignores: ["**/*.test.ts"],
      rules: forbidImports([
        "^@ag-ui-antigravity/(?!(core|harness|harness/protocol|foundation)$)",
        "pool, translator and hitl build on harness only; translator and hitl are siblings that agent composes (ARCHITECTURE.md).",
      ]),
    },
    {
      files: sourceOf("acp-server"),
      ignores: ["**/*.test.ts"],
      rules: forbidImports([
        "^@ag-ui-antigravity/(?!(core|harness|harness-emulator/binary-path|pool|foundation)$)",
        "acp-server builds on harness and pool (and the emulator's binary path for its key-less mode), like mcp-server; it composes no AG-UI package (ARCHITECTURE.md).",
      ]),
    },
    {
      files: sourceOf("express"),
      ignores: ["**/*.test.ts"],
      rules: forbidImports(["^@ag-ui-antigravity/agent(/|$)", "express binds any AG-UI AbstractAgent and never imports agent (ARCHITECTURE.md)."]),
    },
    {
      files: ["apps/**/*.{ts,tsx,mts,cts,js,mjs}"],
      rules: forbidImports(
        ["^@ag-ui-antigravity/[^/]+/(src|dist)(/|$)", "Apps reach a package through its name and the subpaths its exports declare, never its src/ or dist/ (ARCHITECTURE.md)."],
        ["(^|/)packages/", "Apps reach a package through its name and the subpaths its exports declare, never its files (ARCHITECTURE.md)."],
      ),
    },
    {
      files: ["apps/dojo/src/**/*.{ts,tsx}"],
      rules: forbidImports(
        ["^@ag-ui-antigravity/(?!express/client$)", "The dojo talks to the server over HTTP only: of our packages it imports @ag-ui-antigravity/express/client (ARCHITECTURE.md)."],
        ["(^|/)packages/", "Apps reach a package through its name and the subpaths its exports declare, never its files (ARCHITECTURE.md)."],
      ),
    },
  ];
}

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
      // A file URL's pathname is not a path: on Windows it keeps a leading slash before the drive
      // letter, and everywhere it keeps %20 for a space. fileURLToPath converts it properly.
      "no-restricted-syntax": [
        "error",
        {
          selector: "MemberExpression[property.name='pathname'][object.type='NewExpression'][object.callee.name='URL']:has(MetaProperty)",
          message: "Use fileURLToPath(new URL(…, import.meta.url)): a URL's pathname is not a file path on Windows, nor with spaces.",
        },
      ],
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
    files: ["packages/{harness,harness-emulator,agent,express,hitl,mcp-server,acp-server,pool,translator}/src/**/*.ts"],
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
  // Layering, as ARCHITECTURE.md ("Layering: who may import whom") states it. The package rules
  // match the import's name, so a forbidden import fails before anyone declares it in a package.json;
  // the rule inside harness matches resolved paths. `@ag-ui-antigravity/core` (the public vocabulary)
  // is below every layer and imports nothing of ours. `@ag-ui-antigravity/foundation` (private, inlined
  // into each package's build by tsup) adds no package to the graph, so every layer may use it.
  // test/layering.test.ts in packages/testing proves each rule fails on a violating file.
  ...layeringRules(),
  {
    // Tests poke at loosely typed wire payloads; `any` there keeps assertions readable.
    files: ["**/*.test.ts", "**/test/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "@typescript-eslint/no-non-null-assertion": "off" },
  },
);
