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
    expect(command.transport).toEqual({ type: "http", host: "127.0.0.1", port: 8080, clientIdleTimeoutMs: 600_000, authTokens: [], allowedOrigins: [] });
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

  it("reads auth tokens, allowed origins and session sharing, refusing a short token without repeating it", () => {
    const command = parseCli(normalizeArgv(["--http", "--auth-token", "a-token-of-16-chars", "--allowed-origin", "https://app.example", "--share-sessions"]), {}, "/w");
    expect(command.transport).toMatchObject({ authTokens: ["a-token-of-16-chars"], allowedOrigins: ["https://app.example"] });
    expect(command.settings.shareSessions).toBe(true);
    expect(parseCli(normalizeArgv(["--http"]), { ANTIGRAVITY_MCP_AUTH_TOKENS: "first-token-0123456,second-token-012345" }, "/w").transport).toMatchObject({ authTokens: ["first-token-0123456", "second-token-012345"] });
    expect(parseCli([], {}, "/w").settings.shareSessions).toBe(false);
    expect(() => parseCli(normalizeArgv(["--http", "--auth-token", "short-secret"]), {}, "/w")).toThrow(/at least 16 characters/);
    try {
      parseCli(normalizeArgv(["--http", "--auth-token", "short-secret"]), {}, "/w");
    } catch (error) {
      expect(String(error)).not.toContain("short-secret");
    }
    expect(() => parseCli(normalizeArgv(["--http", "--allowed-origin", "https://app.example/path"]), {}, "/w")).toThrow(/not an origin/);
  });
});
