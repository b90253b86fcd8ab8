import { describe, expect, it } from "vitest";
import { chooseHarness, emulatorBinaryPath, HarnessChoiceError, parseHarnessPreference } from "./harness-choice.js";

const found = async (): Promise<string> => "/opt/antigravity/localharness";
const notFound = async (): Promise<string> => {
  throw new Error("localharness not found. Searched:\n  - somewhere");
};

describe("chooseHarness", () => {
  it("uses the real harness only with both a binary and GEMINI_API_KEY", async () => {
    const choice = await chooseHarness({ preference: "auto", env: { GEMINI_API_KEY: "key", GEMINI_MODEL: "gemini-test" }, findBinary: found });
    expect(choice).toEqual({ kind: "real", binaryPath: "/opt/antigravity/localharness", apiKey: "key", model: "gemini-test", reason: "found localharness at /opt/antigravity/localharness and GEMINI_API_KEY is set" });
  });

  it("falls back to the emulator and says what is missing", async () => {
    const noKey = await chooseHarness({ preference: "auto", env: {}, findBinary: found });
    expect(noKey).toMatchObject({ kind: "emulator", reason: "GEMINI_API_KEY is not set (localharness was found at /opt/antigravity/localharness)" });
    const badPath = await chooseHarness({
      preference: "auto",
      env: { GEMINI_API_KEY: "key" },
      findBinary: async () => {
        throw new Error("localharness not found: the ANTIGRAVITY_HARNESS_PATH /nowhere is not an executable file. Install it with pip.");
      },
    });
    expect(badPath.reason).toBe("no localharness binary (localharness not found: the ANTIGRAVITY_HARNESS_PATH /nowhere is not an executable file)");
    const neither = await chooseHarness({ preference: "auto", env: {}, findBinary: notFound });
    expect(neither.reason).toBe("no localharness binary (localharness not found in ANTIGRAVITY_HARNESS_PATH, python3's site-packages or PATH); GEMINI_API_KEY is not set");
    expect(neither.binaryPath).toBe(emulatorBinaryPath());
  });

  it("refuses to fall back when the real harness is required, and never looks when the emulator is", async () => {
    await expect(chooseHarness({ preference: "real", env: { GEMINI_API_KEY: "key" }, findBinary: notFound })).rejects.toThrow(HarnessChoiceError);
    const forced = await chooseHarness({ preference: "emulator", env: { GEMINI_API_KEY: "key" }, findBinary: found });
    expect(forced.kind).toBe("emulator");
  });

  it("resolves the emulator's executable from its package", () => {
    expect(emulatorBinaryPath()).toMatch(/harness-emulator\/dist\/bin\.c?js$/);
  });

  it("parses ANTIGRAVITY_DEMO_HARNESS strictly", () => {
    expect(parseHarnessPreference(undefined)).toBe("auto");
    expect(parseHarnessPreference("emulator")).toBe("emulator");
    expect(() => parseHarnessPreference("gemini")).toThrow(HarnessChoiceError);
  });
});
