// The client configurations in the README are what users paste: each one's arguments must be
// flags the command accepts, and the one without a key must run the emulator (so it works with
// nothing else installed), the ones with a key the real harness.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { normalizeArgv, parseCli } from "./parse-cli.js";

interface ServerEntry {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

const readme = readFileSync(fileURLToPath(new URL("../../README.md", import.meta.url)), "utf8");
const configs = [...readme.matchAll(/<!-- mcp-config -->\s*```json\n([\s\S]*?)```/g)].map((match) => {
  const parsed = JSON.parse(match[1] ?? "") as Record<string, Record<string, ServerEntry>>;
  const [entry] = Object.values(Object.values(parsed)[0] ?? {});
  if (entry === undefined) throw new Error(`a README config names no server:\n${match[1]}`);
  return entry;
});

describe("the README's MCP client configurations", () => {
  it("are four: mcpServers with the emulator and with Gemini, VS Code, Zed", () => {
    expect(configs).toHaveLength(4);
  });

  it.each(configs.map((config, index) => [index + 1, config] as const))("config %i runs the package with flags the command accepts", (_index, config) => {
    expect(config.command).toBe("npx");
    expect(config.args.slice(0, 2)).toEqual(["-y", "@ag-ui-antigravity/mcp-server"]);
    const command = parseCli(normalizeArgv(config.args.slice(2)), config.env ?? {}, "/work");
    expect(command.kind).toBe("serve");
    // Without a key the emulator, loudly; with one, the real harness.
    expect(command.settings.emulator).toBe(config.env?.["GEMINI_API_KEY"] === undefined);
  });
});
