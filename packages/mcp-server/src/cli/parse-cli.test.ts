import { describe, expect, it } from "vitest";
import { normalizeArgv, parseCli } from "./parse-cli.js";

describe("parseCli", () => {
  it("runs the emulator, loudly chosen, when there is no key", () => {
    const command = parseCli([], {}, "/work");
    expect(command.settings).toMatchObject({ model: "emulator:demo", emulator: true, workspaces: ["/work"], approval: "ask", maxSessions: 32, sessionIdleTimeoutMs: 1_800_000 });
    expect(command.transport).toEqual({ type: "stdio" });
  });

  it("uses the real model with a key, and reads flags before the environment", () => {
    const command = parseCli(normalizeArgv(["--http", "8080", "--workspace", "a", "--workspace", "/b", "--approval", "deny", "--builtin-tools", "list_directory, run_command"]), { GEMINI_API_KEY: "k", ANTIGRAVITY_MCP_APPROVAL: "allow", ANTIGRAVITY_MCP_MODEL: "gemini-x" }, "/work");
    expect(command.settings).toMatchObject({ model: "gemini-x", emulator: false, workspaces: ["/work/a", "/b"], approval: "deny", builtinTools: ["list_directory", "run_command"] });
    expect(command.transport).toEqual({ type: "http", host: "127.0.0.1", port: 8080, clientIdleTimeoutMs: 600_000 });
  });

  it("answers --version and --help without serving", () => {
    expect(parseCli(["--version"], {}, "/w").kind).toBe("version");
    expect(parseCli(["--help"], {}, "/w").kind).toBe("help");
  });

  it("refuses what it does not understand, naming it", () => {
    expect(() => parseCli(["--approval", "maybe"], {}, "/w")).toThrow(/--approval must be ask, allow or deny/);
    expect(() => parseCli(["--builtin-tools", "rm_rf"], {}, "/w")).toThrow(/unknown builtin tools: rm_rf/);
    expect(() => parseCli(["--max-sessions", "many"], {}, "/w")).toThrow(/--max-sessions must be a whole number/);
    expect(() => parseCli(["--max-sessions", "0"], {}, "/w")).toThrow(/maxSessions/);
    expect(() => parseCli(["--bogus"], {}, "/w")).toThrow(/bogus/);
    expect(() => parseCli(["--session-idle-timeout", "0"], {}, "/w")).toThrow(/--session-idle-timeout must be at least 1/);
  });

  it("reads the idle timeouts in seconds, flags before the environment", () => {
    const command = parseCli(normalizeArgv(["--http", "--session-idle-timeout", "60"]), { ANTIGRAVITY_MCP_SESSION_IDLE_TIMEOUT: "5", ANTIGRAVITY_MCP_CLIENT_IDLE_TIMEOUT: "30" }, "/w");
    expect(command.settings.sessionIdleTimeoutMs).toBe(60_000);
    expect(command.transport).toMatchObject({ type: "http", clientIdleTimeoutMs: 30_000 });
  });
});
