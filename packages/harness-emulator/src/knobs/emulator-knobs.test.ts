import { describe, expect, it } from "vitest";
import { readKnobs } from "./emulator-knobs.js";

describe("readKnobs", () => {
  it("has defaults suited to demos", () => {
    expect(readKnobs({})).toEqual({
      scenario: undefined,
      harnessVersion: "0.1.21",
      strict: true,
      deterministic: false,
      tokenDelayMs: 15,
      chunkSize: 12,
      rebroadcastMs: 1000,
      triggerCrashOnEmpty: false,
      envelope: true,
      backgroundToolMs: 0,
      replay: undefined,
      replayIgnore: [],
      replayTiming: false,
      unknownResume: "empty",
      plainHttp: "answer",
      deniedStep: "error",
      parallelSubagents: false,
      idleDelayMs: 0,
      pongDelayMs: 0,
    });
  });

  it("parses every knob and ignores malformed values", () => {
    expect(
      readKnobs({
        ANTIGRAVITY_EMULATOR_SCENARIO: " demo ",
        ANTIGRAVITY_EMULATOR_HARNESS_VERSION: " 0.1.8 ",
        ANTIGRAVITY_EMULATOR_STRICT: "off",
        ANTIGRAVITY_EMULATOR_DETERMINISTIC: "1",
        ANTIGRAVITY_EMULATOR_CHUNK_SIZE: "-3",
        ANTIGRAVITY_EMULATOR_REBROADCAST_MS: "0",
        ANTIGRAVITY_EMULATOR_TRIGGER_CRASH: "yes",
        ANTIGRAVITY_EMULATOR_ENVELOPE: "off",
        ANTIGRAVITY_EMULATOR_BACKGROUND_TOOL_MS: "2500",
        ANTIGRAVITY_EMULATOR_REPLAY: " /tmp/session.jsonl ",
        ANTIGRAVITY_EMULATOR_REPLAY_IGNORE: "config.workspaces.*, userInput",
        ANTIGRAVITY_EMULATOR_REPLAY_TIMING: "1",
        ANTIGRAVITY_EMULATOR_UNKNOWN_RESUME: " Refuse ",
        ANTIGRAVITY_EMULATOR_PLAIN_HTTP: "sometimes",
        ANTIGRAVITY_EMULATOR_DENIED_STEP: "none",
        ANTIGRAVITY_EMULATOR_PARALLEL_SUBAGENTS: "1",
        ANTIGRAVITY_EMULATOR_IDLE_DELAY_MS: "250",
        ANTIGRAVITY_EMULATOR_PONG_DELAY_MS: "x",
      }),
    ).toEqual({
      scenario: "demo",
      harnessVersion: "0.1.8",
      strict: false,
      deterministic: true,
      tokenDelayMs: 0,
      chunkSize: 12,
      rebroadcastMs: 0,
      triggerCrashOnEmpty: true,
      envelope: false,
      backgroundToolMs: 2500,
      replay: "/tmp/session.jsonl",
      replayIgnore: ["config.workspaces.*", "userInput"],
      replayTiming: true,
      unknownResume: "refuse",
      plainHttp: "answer",
      deniedStep: "none",
      parallelSubagents: true,
      idleDelayMs: 250,
      pongDelayMs: 0,
    });
  });
});
