import { KNOWN_HARNESS_VERSIONS, NEWEST_KNOWN_HARNESS_VERSION } from "@ag-ui-antigravity/harness/protocol";
import { describe, expect, it } from "vitest";
import { defaultHarnessVersion, versionProfile } from "./version-profile.js";

describe("versionProfile", () => {
  it("plays every known release, the newest by default, and refuses any other", () => {
    for (const version of KNOWN_HARNESS_VERSIONS) expect(versionProfile(version).version).toBe(version);
    expect(defaultHarnessVersion).toBe(NEWEST_KNOWN_HARNESS_VERSION);
    expect(versionProfile().version).toBe(NEWEST_KNOWN_HARNESS_VERSION);
    expect(() => versionProfile("0.1.22")).toThrow(expect.objectContaining({ code: "CONFIG_INVALID" }));
    expect(() => versionProfile("latest")).toThrow(/unknown harness version "latest"/);
  });

  it("has a feature from the release that brought it on", () => {
    expect(versionProfile("0.1.8").idleState).toBe("STATE_IDLE");
    expect(versionProfile("0.1.9").idleState).toBe("STATE_FULLY_IDLE");
    expect(versionProfile("0.1.10").has("turnInputParts")).toBe(false);
    expect(versionProfile("0.1.11").has("turnInputParts")).toBe(true);
    expect(versionProfile("0.1.16").has("structArguments")).toBe(false);
    expect(versionProfile("0.1.17").has("structArguments")).toBe(true);
    expect(versionProfile("0.1.20").has("waitingForSubagents")).toBe(false);
    expect(versionProfile("0.1.21").has("waitingForSubagents")).toBe(true);
  });
});
