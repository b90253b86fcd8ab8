import { describe, expect, it } from "vitest";
import { HarnessError } from "../errors/harness-error.js";
import { buildHarnessConfig, workspaceNote } from "./build-harness-config.js";
import { validateConversationConfig } from "./validate-config.js";
import { HarnessDialect } from "../protocol/dialect.js";

const dialect = new HarnessDialect("0.1.21");

function configError(config: Parameters<typeof validateConversationConfig>[0]): HarnessError {
  try {
    validateConversationConfig(config);
  } catch (error) {
    if (HarnessError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected CONFIG_INVALID");
}

describe("validateConversationConfig", () => {
  it("applies defaults: read-only builtins, a 300 s timeout, workspace announcement", () => {
    const config = validateConversationConfig({});
    // The model default depends on the harness release, so it is chosen when the config is built.
    expect(config.model).toBeUndefined();
    expect(config.turnTimeoutMs).toBe(300_000);
    expect(config.announceWorkspaces).toBe(true);
  });

  it("names the offending field", () => {
    expect(configError({ turnTimeoutMs: -1 }).message).toContain("turnTimeoutMs");
    expect(configError({ workspaces: ["relative/path"] }).message).toContain("workspaces.0");
    expect(configError({ customTools: [{ name: "t", description: "d", parameters: { type: "array" }, handler: () => 1 }] }).message).toContain(
      "customTools.0.parameters",
    );
    expect(configError({ unknownOption: true } as never).code).toBe("CONFIG_INVALID");
  });

  it("rejects an endpoint together with a baseUrl, and resume without an id", () => {
    expect(configError({ endpoint: { type: "gemini" }, baseUrl: "http://localhost:8080" }).message).toContain("baseUrl");
    expect(configError({ continuation: "resume" }).message).toContain("continuation");
  });

  it("rejects subagent tools that are not the conversation's custom tools", () => {
    expect(configError({ subagents: [{ name: "helper", description: "d", tools: ["ghost"] }] }).message).toContain("subagents.0.tools.0");
  });

  it("refuses write-capable builtins and MCP servers without a policy or pre-tool hook (the safety gate)", () => {
    expect(configError({ builtinTools: ["run_command"] }).message).toContain("run_command");
    expect(configError({ mcpServers: [{ name: "fs", command: "mcp-fs" }] }).message).toContain("mcpServers");
    expect(() => validateConversationConfig({ builtinTools: ["run_command"], policies: [{ tool: "run_command", decision: "confirm" }] })).not.toThrow();
    expect(() => validateConversationConfig({ mcpServers: [{ name: "fs", url: "http://localhost:9000/mcp" }], hooks: { preTool: () => undefined } })).not.toThrow();
  });
});

describe("buildHarnessConfig", () => {
  it("writes every builtin toggle explicitly and announces the workspaces", () => {
    const config = buildHarnessConfig(validateConversationConfig({ workspaces: ["/repo"], systemInstructions: "Be brief." }), { apiKey: "k", dialect });
    expect(Object.values(config.harnessSideTools ?? {}).every((toggle) => typeof (toggle as { enabled?: boolean }).enabled === "boolean")).toBe(true);
    expect(config.harnessSideTools?.find).toEqual({ enabled: true });
    expect(config.harnessSideTools?.writeToFile).toEqual({ enabled: false });
    expect(config.harnessSideTools?.readUrlContent).toEqual({ enabled: false });
    expect(config.systemInstructions?.appended?.appendedSections).toEqual([
      { title: "user_system_instructions", content: "Be brief." },
      { title: "Workspace", content: workspaceNote(["/repo"]) },
    ]);
    expect(config.workspaces).toEqual([{ filesystemWorkspace: { directory: "/repo" } }]);
    expect(config.cascadeId).toBe("");
    expect(config.policyConfig).toBeUndefined();
  });

  it("replaces instructions with custom parts, and can keep the workspaces unannounced", () => {
    const replaced = buildHarnessConfig(validateConversationConfig({ workspaces: ["/repo"], systemInstructions: { text: "You are X.", mode: "replace" } }), {
      apiKey: undefined,
      dialect,
    });
    expect(replaced.systemInstructions?.custom?.part?.map((part) => part.text)).toEqual(["You are X.", workspaceNote(["/repo"])]);
    const quiet = buildHarnessConfig(validateConversationConfig({ workspaces: ["/repo"], announceWorkspaces: false }), { apiKey: undefined, dialect });
    expect(quiet.systemInstructions).toBeUndefined();
  });

  it("maps endpoints, resume, retry, truncation, structured output and subagents", () => {
    const config = buildHarnessConfig(
      validateConversationConfig({
        workspaces: ["/w"],
        endpoint: { type: "vertex", project: "p", location: "us-central1" },
        thinkingLevel: "high",
        conversationId: "abc123",
        continuation: "resume",
        retry: { maxRetries: 3, modelOutputMaxRetries: 1 },
        truncation: { mode: "error", maxTokens: 100, message: "too long" },
        responseSchema: { type: "object", properties: { answer: { type: "string" } } },
        customTools: [{ name: "lookup", description: "d", parameters: { type: "object" }, handler: () => 1 }],
        subagents: [{ name: "helper", description: "helps", tools: ["lookup"] }],
      }),
      { apiKey: undefined, dialect },
    );
    expect(config.models?.[0]).toEqual({ name: "gemini-3.8-flash", types: ["MODEL_TYPE_TEXT"], vertexEndpoint: { project: "p", location: "us-central1", options: { thinkingLevel: "high" } } });
    expect(config.cascadeId).toBe("abc123");
    expect(config.sessionContinuationMode).toBe("RESUME");
    expect(config.retryConfig).toEqual({ apiRetry: { maxRetries: 3 }, modelOutputRetry: { maxRetries: 1 } });
    expect(config.toolOutputTruncation).toEqual({ error: { maxTokens: 100, errorMessage: "too long" } });
    expect(JSON.parse(config.finishToolSchemaJson ?? "")).toMatchObject({ type: "object" });
    expect(config.customSubagents?.[0]?.tools?.[0]?.name).toBe("lookup");
    expect(config.customSubagents?.[0]?.harnessSideTools?.subagents).toEqual({ enabled: false });
    expect(config.harnessSideTools?.subagents).toEqual({ enabled: true });
  });

  it("uses a gemma endpoint for a local OpenAI-compatible base URL", () => {
    const config = buildHarnessConfig(validateConversationConfig({ workspaces: ["/w"], baseUrl: "http://localhost:11434" }), { apiKey: undefined, dialect });
    expect(config.models?.[0]?.gemmaEndpoint).toEqual({ baseUrl: "http://localhost:11434" });
  });
});
