import { describe, expect, it } from "vitest";
import { OutboundRedactor, publicModelName } from "./outbound-redaction.js";

describe("OutboundRedactor", () => {
  const redactor = new OutboundRedactor(["planted-secret-key-0123", undefined, "short"]);

  it("removes known keys, key= parameters, key-shaped strings, bearer credentials, stack frames and absolute paths", () => {
    const upstream = [
      "API key not valid: POST https://generativelanguage.googleapis.com/v1beta/models/m:generateContent?alt=sse&key=planted-secret-key-0123 failed",
      "also AIzaSyA1234567890abcdefghijklmnopqrstuv and Authorization: Bearer abcdefghijklmnop",
      "reading /home/builder/.cache/antigravity/config.json and C:\\Users\\me\\key.txt",
      "    at callModel (/srv/app/node_modules/x/index.js:10:5)",
      "\t/usr/local/go/src/net/http/client.go:42 +0x1d",
    ].join("\n");
    const text = redactor.text(upstream);
    expect(text).not.toMatch(/planted-secret-key|AIzaSy|abcdefghijklmnop|\/home\/builder|\/srv\/app|client\.go|Users\\me/);
    expect(text).toContain("key=[redacted]");
    expect(text).toContain("https://generativelanguage.googleapis.com/v1beta/models/m:generateContent");
    expect(text).toContain("reading [path]");
  });

  it("leaves ordinary text alone and cuts long text", () => {
    expect(redactor.text("The model call failed (HTTP 429): quota exceeded, short.")).toBe("The model call failed (HTTP 429): quota exceeded, short.");
    expect(redactor.text("x".repeat(5_000)).length).toBeLessThanOrEqual(1_001);
  });

  it("reads keys from the environment", () => {
    expect(OutboundRedactor.fromEnvironment([], { GEMINI_API_KEY: "env-secret-key-987654" }).text("k=env-secret-key-987654")).toBe("k=[redacted]");
  });
});

describe("publicModelName", () => {
  it("shows an emulator scenario by name, not by path", () => {
    expect(publicModelName("emulator:/opt/app/fixtures/scenarios/demo.json")).toBe("emulator:demo");
    expect(publicModelName("gemini-3.6-flash")).toBe("gemini-3.6-flash");
  });
});
