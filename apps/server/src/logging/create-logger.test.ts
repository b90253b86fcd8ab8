import { describe, expect, it } from "vitest";
import { createLogger } from "./create-logger.js";

function capture(): { lines: () => Record<string, unknown>[]; destination: { write(line: string): void } } {
  const written: string[] = [];
  return { lines: () => written.map((line) => JSON.parse(line) as Record<string, unknown>), destination: { write: (line) => void written.push(line) } };
}

describe("createLogger", () => {
  it("writes JSON lines and redacts keys and credentials wherever the listed paths put them", () => {
    const { lines, destination } = capture();
    const logger = createLogger({ level: "info" }, destination);
    logger.info({ apiKey: "sk-1", config: { apiKey: "sk-2", model: "m" }, headers: { authorization: "Bearer t", "x-goog-api-key": "k", accept: "text/event-stream" } }, "configured");
    const [line] = lines();
    expect(line).toMatchObject({ msg: "configured", service: "ag-ui-antigravity-demo", apiKey: "[redacted]", config: { apiKey: "[redacted]", model: "m" } });
    expect(line?.["headers"]).toEqual({ authorization: "[redacted]", "x-goog-api-key": "[redacted]", accept: "text/event-stream" });
    expect(JSON.stringify(lines())).not.toMatch(/sk-1|sk-2|Bearer t/);
  });

  it("honours the level", () => {
    const { lines, destination } = capture();
    const logger = createLogger({ level: "warn" }, destination);
    logger.info({}, "hidden");
    logger.warn({}, "shown");
    expect(lines().map((line) => line["msg"])).toEqual(["shown"]);
  });
});
