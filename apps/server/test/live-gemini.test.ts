// The same server on the real harness with Gemini. It runs only where both a localharness binary
// and GEMINI_API_KEY exist; everywhere else the suite is skipped with the reason in its name.
import { pino } from "pino";
import { listenOnEphemeralPort } from "@ag-ui-antigravity/testing";
import { describe, expect, it } from "vitest";
import { createDemoServer } from "../src/app.js";
import { chooseHarness } from "../src/harness/harness-choice.js";
import { defaultDojoDistDirectory } from "../src/package-paths.js";
import { clientFor, say } from "./support/agent-runs.js";

const harness = await chooseHarness({ preference: "auto", env: process.env });
const suiteName =
  harness.kind === "real"
    ? "live: the demo server on the real harness with Gemini"
    : `live Gemini tests SKIPPED: ${harness.reason} (set GEMINI_API_KEY and install localharness to run them)`;

describe.skipIf(harness.kind !== "real")(suiteName, () => {
  it("answers a weather question through get_weather with a structured result", { timeout: 120_000 }, async () => {
    const demo = await createDemoServer({ harness, logger: pino({ level: "warn" }), dojoDistDirectory: defaultDojoDistDirectory() });
    const server = await listenOnEphemeralPort(demo.app);
    try {
      const run = await say(clientFor(server.url, "backend_tool_rendering"), "What's the weather in Paris right now?");
      const call = run.toolCalls.find((toolCall) => toolCall.name === "get_weather");
      expect(call).toBeDefined();
      expect(JSON.parse(run.toolResults.get(call!.id) ?? "null")).toMatchObject({ unit: "°C", source: "simulated" });
      expect(run.text.length).toBeGreaterThan(0);
    } finally {
      await server.close();
      await demo.close();
    }
  });
});
