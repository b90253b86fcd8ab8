import { shieldLogger } from "@ag-ui-antigravity/foundation";
import { describe, expect, it } from "vitest";
import { Redactor } from "./redactor.js";
import { parseWireSelection, wireSelectionIncludes } from "./wire-selection.js";
import { WireTap } from "./wire-tap.js";

describe("ANTIGRAVITY_WIRE selection", () => {
  it("parses channels, message keys and summary", () => {
    expect(parseWireSelection(undefined)).toBeUndefined();
    expect(parseWireSelection("0")).toBeUndefined();
    const selection = parseWireSelection("stepUpdate, summary");
    expect(selection).toBeDefined();
    if (selection === undefined) return;
    expect(selection.summary).toBe(true);
    expect(wireSelectionIncludes(selection, "ws", "stepUpdate")).toBe(true);
    expect(wireSelectionIncludes(selection, "ws", "toolCall")).toBe(false);
    expect(wireSelectionIncludes(selection, "harness", "InputConfig")).toBe(false);
    const everything = parseWireSelection("summary");
    expect(everything !== undefined && wireSelectionIncludes(everything, "harness", "InputConfig")).toBe(true);
  });

  it("treats userInput as also selecting complexUserInput, and summarises multi-part input", () => {
    const selection = parseWireSelection("userInput");
    expect(selection !== undefined && wireSelectionIncludes(selection, "ws", "complexUserInput")).toBe(true);
    expect(selection !== undefined && wireSelectionIncludes(selection, "ws", "stepUpdate")).toBe(false);
    const lines: string[] = [];
    const tap = new WireTap({ logger: shieldLogger(undefined), redactor: new Redactor(), selection: "userInput,summary", write: (line) => lines.push(line), loggerConfigured: false });
    tap.record({ channel: "ws", direction: "send", messageKey: "complexUserInput", message: { complexUserInput: { parts: [{ text: "look at this" }, { media: { mimeType: "image/png", data: "AA==" } }] } } });
    expect(lines).toEqual(['antigravity ws → complexUserInput "look at this" +1 non-text part']);
  });

  it("prints one redacted summary line per selected message", () => {
    const lines: string[] = [];
    const redactor = new Redactor();
    redactor.addSecret("secret-token-123");
    const tap = new WireTap({ logger: shieldLogger(undefined), redactor, selection: "ws,summary", write: (line) => lines.push(line), loggerConfigured: false });
    tap.record({ channel: "ws", direction: "receive", messageKey: "stepUpdate", message: { stepUpdate: { trajectoryId: "t", stepIndex: 3, state: "STATE_ACTIVE", textDelta: "hi" } } });
    tap.record({ channel: "harness", direction: "receive", messageKey: "OutputConfig", message: { apiKey: "secret-token-123" } });
    expect(lines).toEqual(["antigravity ws ← stepUpdate t:3 STATE_ACTIVE +2 chars"]);
  });
});

describe("Redactor", () => {
  it("blanks secret-named keys and scrubs registered secrets from text", () => {
    const redactor = new Redactor();
    redactor.addSecret("AIzaSyExample");
    expect(redactor.redactValue({ apiKey: "whatever", nested: { note: "key=AIzaSyExample" } })).toEqual({ apiKey: "[REDACTED]", nested: { note: "key=[REDACTED]" } });
    expect(redactor.fork().redactText("AIzaSyExample")).toBe("[REDACTED]");
  });

  it("blanks every value of env and headers maps, URL user info and credential parameters, and keeps the names", () => {
    const redactor = new Redactor();
    const redacted = redactor.redactValue({
      mcpServers: [{ name: "db", env: { DATABASE: "postgres://u:p@h/db", EMPTY: "" }, http: { url: "https://me:pw@mcp.example/x?token=t0k&plain=1", headers: { Referer: "anything" } } }],
      endpoint: { httpHeaders: { "X-Api-Key": "k" }, baseUrl: "https://g.example/v1?alt=sse&key=AIzaLooksLikeAKey" },
      note: "see https://user:pass@host/path and ?api_key=abc&x=1",
    });
    expect(redacted).toEqual({
      mcpServers: [{ name: "db", env: { DATABASE: "[REDACTED]", EMPTY: "" }, http: { url: "https://[REDACTED]@mcp.example/x?token=[REDACTED]&plain=1", headers: { Referer: "[REDACTED]" } } }],
      endpoint: { httpHeaders: { "X-Api-Key": "[REDACTED]" }, baseUrl: "https://g.example/v1?alt=sse&key=[REDACTED]" },
      note: "see https://[REDACTED]@host/path and ?api_key=[REDACTED]&x=1",
    });
  });

  it("scrubs from free text the map values named like credentials or long enough to be one, not everyday words", () => {
    const redactor = new Redactor();
    redactor.addSecretsOf({ GITHUB_TOKEN: "ghp_short1", NODE_ENV: "production", OPAQUE: "abcdefghijklmnopqrstuvwxyz0123" });
    expect(redactor.redactText("ghp_short1 production abcdefghijklmnopqrstuvwxyz0123")).toBe("[REDACTED] production [REDACTED]");
  });
});
