import { describe, expect, it } from "vitest";
import { agentOptionsSchema } from "./agent-options.js";

describe("agentOptionsSchema", () => {
  it("accepts a logger that is a class instance (pino's loggers are), not only a plain object", () => {
    class ConsoleLikeLogger {
      info(): void {}
      warn(): void {}
    }
    expect(agentOptionsSchema.safeParse({ logger: new ConsoleLikeLogger() }).success).toBe(true);
    expect(agentOptionsSchema.safeParse({ logger: { warn: () => undefined } }).success).toBe(true);
    expect(agentOptionsSchema.safeParse({ logger: "console" }).success).toBe(false);
  });
});
