import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "./paths.js";

// The layering ARCHITECTURE.md states is enforced by the workspace's ESLint config. Each case lints
// a file that does not exist (lintText) at a path inside the layer, so the real config and resolver
// judge it: the forbidden import must fail with the layering rule, the permitted one must not.
const layeringRules = new Set(["@typescript-eslint/no-restricted-imports", "import-x/no-restricted-paths"]);

interface Case {
  rule: string;
  file: string;
  forbidden: string;
  permitted: string;
}

const cases: Case[] = [
  { rule: "core imports no package of ours", file: "packages/core/src/layering-probe.ts", forbidden: "@ag-ui-antigravity/foundation", permitted: "node:util" },
  { rule: "harness imports core, the layer below it", file: "packages/harness/src/layering-probe.ts", forbidden: "@ag-ui-antigravity/hitl", permitted: "@ag-ui-antigravity/core" },
  { rule: "harness imports no package of ours", file: "packages/harness/src/layering-probe.ts", forbidden: "@ag-ui-antigravity/pool", permitted: "@ag-ui-antigravity/foundation" },
  { rule: "harness/protocol does no I/O", file: "packages/harness/src/protocol/layering-probe.ts", forbidden: "node:net", permitted: "@bufbuild/protobuf/wire" },
  { rule: "harness/protocol does no I/O (ws)", file: "packages/harness/src/protocol/layering-probe.ts", forbidden: "ws", permitted: "zod/v4" },
  { rule: "harness/protocol imports nothing from harness outside protocol/", file: "packages/harness/src/protocol/layering-probe.ts", forbidden: "../conversation/conversation.js", permitted: "./frames.js" },
  { rule: "the ./protocol entry imports only protocol/", file: "packages/harness/src/protocol.ts", forbidden: "./process/harness-process.js", permitted: "./protocol/frames.js" },
  { rule: "pool builds on harness only", file: "packages/pool/src/layering-probe.ts", forbidden: "@ag-ui-antigravity/agent", permitted: "@ag-ui-antigravity/harness" },
  { rule: "translator does not import hitl", file: "packages/translator/src/layering-probe.ts", forbidden: "@ag-ui-antigravity/hitl", permitted: "@ag-ui-antigravity/harness" },
  { rule: "hitl does not import translator", file: "packages/hitl/src/layering-probe.ts", forbidden: "@ag-ui-antigravity/translator", permitted: "@ag-ui-antigravity/harness/protocol" },
  { rule: "acp-server builds on harness and pool only", file: "packages/acp-server/src/layering-probe.ts", forbidden: "@ag-ui-antigravity/hitl", permitted: "@ag-ui-antigravity/pool" },
  { rule: "express does not import agent", file: "packages/express/src/layering-probe.ts", forbidden: "@ag-ui-antigravity/agent", permitted: "express" },
  { rule: "apps never reach a package's src", file: "apps/server/src/layering-probe.ts", forbidden: "@ag-ui-antigravity/agent/src/index.js", permitted: "@ag-ui-antigravity/agent" },
  { rule: "apps never reach a package's files by path", file: "apps/server/src/layering-probe.ts", forbidden: "../../../packages/agent/dist/index.js", permitted: "@ag-ui-antigravity/express" },
  { rule: "the dojo talks HTTP only", file: "apps/dojo/src/layering-probe.ts", forbidden: "@ag-ui-antigravity/express", permitted: "@ag-ui-antigravity/express/client" },
];

describe("the layering lint (ARCHITECTURE.md)", () => {
  let eslint: ESLint;
  beforeAll(() => {
    eslint = new ESLint({ cwd: repoRoot });
  });

  async function layeringErrors(file: string, specifier: string): Promise<string[]> {
    const code = `import * as imported from ${JSON.stringify(specifier)};\nexport const probe = imported;\n`;
    const [result] = await eslint.lintText(code, { filePath: file });
    return (result?.messages ?? []).filter((message) => message.ruleId !== null && layeringRules.has(message.ruleId)).map((message) => `${message.ruleId}: ${message.message}`);
  }

  it.each(cases)("$rule: $forbidden fails in $file, $permitted passes", async ({ file, forbidden, permitted }) => {
    const errors = await layeringErrors(file, forbidden);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/ARCHITECTURE\.md/);
    expect(await layeringErrors(file, permitted)).toEqual([]);
  });

  // Not a layer but the same rule: the wire client loads the frame parser lazily (conversation.ts),
  // so the rest of harness may take only types from it and from the message schemas.
  it("the rest of harness imports the frame parser and the message schemas for their types only", async () => {
    const file = "packages/harness/src/conversation/layering-probe.ts";
    for (const module of ["../protocol/parse.js", "../protocol/messages.js"]) {
      const errors = await layeringErrors(file, module);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/loadOutputEventParser/);
      const [typeOnly] = await eslint.lintText(`import type * as imported from ${JSON.stringify(module)};\nexport type Probe = typeof imported;\n`, { filePath: file });
      expect((typeOnly?.messages ?? []).filter((message) => message.ruleId !== null && layeringRules.has(message.ruleId))).toEqual([]);
    }
    expect(await layeringErrors("packages/harness/src/protocol/layering-probe.ts", "./parse.js")).toEqual([]);
  });
});
