import { describe, expect, it } from "vitest";
import { loggedId, shieldLogger, silentLogger } from "./logger.js";

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

  it("cuts the ids a client chose to a bounded length, and says how long they were", () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = shieldLogger({ info: (fields: Record<string, unknown>) => void lines.push(fields) });
    const huge = "t".repeat(900_000);
    const fields = { threadId: huge, runId: "short", other: 1 };
    logger.info(fields, "run refused");
    expect(String(lines[0]?.["threadId"]).length).toBeLessThan(200);
    expect(lines[0]?.["threadId"]).toMatch(/…\(900000 characters\)$/);
    expect(lines[0]?.["runId"]).toBe("short");
    expect(fields.threadId).toBe(huge);
    expect(loggedId("x".repeat(128))).toBe("x".repeat(128));
  });
});
