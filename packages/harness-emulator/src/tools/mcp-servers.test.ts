import { describe, expect, it } from "vitest";
import { findMcpLoadFailure } from "./mcp-servers.js";

describe("findMcpLoadFailure", () => {
  it("accepts commands found on PATH or by path, and HTTP servers", async () => {
    expect(await findMcpLoadFailure([{ name: "node", stdio: { command: "node" } }, { name: "web", http: { url: "http://127.0.0.1:9/mcp" } }], process.env["PATH"])).toBeUndefined();
    expect(await findMcpLoadFailure([{ name: "abs", stdio: { command: process.execPath } }], "")).toBeUndefined();
  });

  it("names the first server whose command cannot start, as the harness does", async () => {
    expect(await findMcpLoadFailure([{ name: "dead_server", stdio: { command: "no-such-mcp-server-binary" } }], process.env["PATH"])).toBe(
      'MCP load failed for dead_server: exec: "no-such-mcp-server-binary": executable file not found in $PATH',
    );
    expect(await findMcpLoadFailure([{ name: "empty", stdio: {} }], process.env["PATH"])).toBe("MCP load failed for empty: no command to start");
  });
});
