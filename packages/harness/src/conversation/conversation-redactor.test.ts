import { describe, expect, it } from "vitest";
import { Redactor } from "../observability/redactor.js";
import { conversationRedactor } from "./conversation-redactor.js";
import { validateConversationConfig } from "./validate-config.js";

describe("conversationRedactor", () => {
  it("hides the process's secrets, the config's keys and what endpoint headers and MCP servers are given", () => {
    const processRedactor = new Redactor();
    processRedactor.addSecret("process-token-1234");
    const config = validateConversationConfig({
      endpoint: { type: "gemini", apiKey: "endpoint-key-5678", headers: { "X-Api-Key": "header-key-9012" } },
      mcpServers: [
        { name: "db", command: "mcp-db", env: { DB_PASSWORD: "hunter2-db-pass" } },
        { name: "web", url: "https://mcp.example/x", headers: { Authorization: "Bearer web-token-3456" } },
      ],
      // MCP tools need a gate (the config's safety check); this one is never called.
      hooks: { preTool: () => ({ decision: "allow" }) },
    });
    const redactor = conversationRedactor(processRedactor, config, "gemini-key-7890");
    const text = "process-token-1234 endpoint-key-5678 header-key-9012 hunter2-db-pass Bearer web-token-3456 gemini-key-7890 plain";
    expect(redactor.redactText(text)).toBe("[REDACTED] [REDACTED] [REDACTED] [REDACTED] [REDACTED] [REDACTED] plain");
    // The process's redactor learns nothing of one conversation's secrets.
    expect(processRedactor.redactText("gemini-key-7890 hunter2-db-pass")).toBe("gemini-key-7890 hunter2-db-pass");
  });
});
