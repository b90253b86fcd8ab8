import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CLIENT_ERROR_CODES, type ClientErrorCodeInfo } from "@ag-ui-antigravity/core";

// The vocabulary lives in @ag-ui-antigravity/core, but the packages above it send the codes. This test
// reads their sources as text (it imports none of them), so the table cannot keep a code nobody sends.
const packagesDir = fileURLToPath(new URL("../../../", import.meta.url));

/** The lines of a package's shipped sources (tests left out) that use a string literal as a value. */
function sourceLinesOf(pkg: ClientErrorCodeInfo["from"]): string[] {
  const root = join(packagesDir, pkg, "src");
  const files = (readdirSync(root, { recursive: true, encoding: "utf8" }) as string[]).filter(
    (file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.endsWith(".d.ts"),
  );
  return files
    .flatMap((file) => readFileSync(join(root, file), "utf8").split("\n"))
    .filter((line) => {
      const code = line.trim();
      // A member of a code's type union (`| "POOL_CLOSED"`) or a comment declares or mentions a code; it sends nothing.
      return !code.startsWith("|") && !code.startsWith("//") && !code.startsWith("*") && !code.startsWith("/*");
    });
}

const entries = Object.entries(CLIENT_ERROR_CODES) as [string, ClientErrorCodeInfo][];

describe("every code in the vocabulary is sent", () => {
  const sources = new Map<ClientErrorCodeInfo["from"], string[]>();
  const linesOf = (pkg: ClientErrorCodeInfo["from"]): string[] => {
    let lines = sources.get(pkg);
    if (lines === undefined) sources.set(pkg, (lines = sourceLinesOf(pkg)));
    return lines;
  };

  it("by the package the table says sends it, as a string literal in its sources", () => {
    const unsent = entries.filter(([name, info]) => !linesOf(info.from).some((line) => line.includes(`"${name}"`))).map(([name, info]) => `${name} (${info.from})`);
    expect(unsent, "codes no package sends: send them or drop them from client-error-codes.ts").toEqual([]);
  });

  it("spells no failure two ways (the same words in another order, as INVALID_OPTIONS beside CONFIG_INVALID was)", () => {
    const byWords = new Map<string, string[]>();
    for (const [name] of entries) {
      const words = name.split("_").sort().join("_");
      byWords.set(words, [...(byWords.get(words) ?? []), name]);
    }
    expect([...byWords.values()].filter((names) => names.length > 1)).toEqual([]);
    for (const [name] of entries) expect(name).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
  });
});
