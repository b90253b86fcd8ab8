import { describe, expect, it } from "vitest";
import { parseCli } from "./parse-cli.js";

describe("parseCli", () => {
  it("runs the emulator without a key, keeps sessions in the XDG state directory, and asks by default", () => {
    const command = parseCli([], { HOME: "/home/u" }, "/work");
    expect(command.settings).toMatchObject({ model: "emulator:demo", emulator: true, defaultMode: "ask", maxSessions: 16, idleTimeoutMs: 900_000, stateDirectory: "/home/u/.local/state/antigravity-acp-server" });
    expect(parseCli([], { HOME: "/home/u", XDG_STATE_HOME: "/state" }, "/work").settings.stateDirectory).toBe("/state/antigravity-acp-server");
    expect(parseCli(["--ephemeral"], { HOME: "/home/u" }, "/work").settings.stateDirectory).toBeUndefined();
  });

  it("reads flags before the environment, seconds as milliseconds", () => {
    const command = parseCli(["--mode", "accept-edits", "--idle-timeout", "1.5", "--state-dir", "state", "--builtin-tools", "view_file, edit_file"], { GEMINI_API_KEY: "k", ANTIGRAVITY_ACP_MODE: "read-only", ANTIGRAVITY_ACP_MODEL: "gemini-x", ANTIGRAVITY_ACP_MAX_SESSIONS: "3" }, "/work");
    expect(command.settings).toMatchObject({ model: "gemini-x", emulator: false, defaultMode: "accept-edits", idleTimeoutMs: 1_500, maxSessions: 3, stateDirectory: "/work/state", builtinTools: ["view_file", "edit_file"] });
  });

  it("refuses what it does not understand, naming it", () => {
    expect(() => parseCli(["--mode", "yolo"], {}, "/w")).toThrow(/--mode must be one of ask, accept-edits, read-only/);
    expect(() => parseCli(["--builtin-tools", "rm_rf"], {}, "/w")).toThrow(/unknown builtin tools: rm_rf/);
    expect(() => parseCli(["--idle-timeout", "soon"], {}, "/w")).toThrow(/--idle-timeout must be a number of seconds/);
    expect(() => parseCli(["--idle-timeout", "0.1"], {}, "/w")).toThrow(/idleTimeoutMs/);
    expect(() => parseCli(["--bogus"], {}, "/w")).toThrow(/bogus/);
  });
});
