import { describe, expect, it } from "vitest";
import { shieldLogger, silentLogger } from "./logger.js";

describe("shieldLogger", () => {
  it("passes fields then message, pino's order, and omits an absent message", () => {
    const lines: unknown[][] = [];
    const logger = shieldLogger({ warn: (...args: unknown[]) => void lines.push(args) });
    logger.warn({ pid: 7 }, "process exited");
    logger.warn({ pid: 8 });
    expect(lines).toEqual([[{ pid: 7 }, "process exited"], [{ pid: 8 }]]);
  });

  it("fills missing levels and swallows a throwing sink", () => {
    const logger = shieldLogger({
      error: () => {
        throw new Error("disk full");
      },
    });
    expect(() => logger.error({}, "boom")).not.toThrow();
    expect(() => logger.debug({}, "no debug level")).not.toThrow();
  });

  it("calls the sink as a method, so a class-based logger keeps its this", () => {
    class Sink {
      readonly seen: string[] = [];
      info(_fields: object, message?: string): void {
        this.seen.push(message ?? "");
      }
    }
    const sink = new Sink();
    shieldLogger(sink).info({}, "hello");
    expect(sink.seen).toEqual(["hello"]);
  });

  it("is the silent logger without a sink", () => {
    expect(shieldLogger(undefined)).toBe(silentLogger);
  });
});
