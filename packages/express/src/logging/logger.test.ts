import { describe, expect, it } from "vitest";
import { noopLogger, toBindingLogger } from "./logger.js";

describe("toBindingLogger", () => {
  it("defaults to the no-op logger", () => {
    expect(toBindingLogger(undefined)).toBe(noopLogger);
  });

  it("calls the sink in pino's order (fields, then message) and fills missing levels", () => {
    const calls: unknown[][] = [];
    const logger = toBindingLogger({ warn: (...args: unknown[]) => void calls.push(args) });
    logger.warn({ threadId: "t" }, "something");
    logger.warn({ only: "fields" });
    logger.error({ ignored: true }, "no error level given");
    expect(calls).toEqual([[{ threadId: "t" }, "something"], [{ only: "fields" }]]);
  });

  it("swallows a throwing sink", () => {
    const logger = toBindingLogger({
      error: () => {
        throw new Error("disk full");
      },
    });
    expect(() => logger.error({}, "x")).not.toThrow();
  });
});
