import { describe, expect, it } from "vitest";
import { shieldLogger, silentPoolLogger } from "./pool-logger.js";

describe("shieldLogger", () => {
  it("fills missing levels and swallows a throwing sink", () => {
    const seen: string[] = [];
    const logger = shieldLogger({
      warn: (message) => seen.push(message),
      error: () => {
        throw new Error("sink down");
      },
    });
    logger.warn("kept", { extra: 1 });
    expect(() => logger.error("lost")).not.toThrow();
    expect(() => logger.debug("absent")).not.toThrow();
    expect(seen).toEqual(["kept"]);
    expect(shieldLogger(undefined)).toBe(silentPoolLogger);
  });
});
