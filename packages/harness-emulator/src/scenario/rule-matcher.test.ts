import { describe, expect, it } from "vitest";
import { ConfigView } from "../conversation/config-view.js";
import { findMentionedTool, matchRule } from "./rule-matcher.js";
import { loadScenario } from "./scenario-loader.js";

const demo = loadScenario("demo");

function ruleFor(text: string, options: { trigger?: boolean; config?: ConstructorParameters<typeof ConfigView>[0] } = {}): string | undefined {
  const config = new ConfigView(options.config ?? { tools: [{ name: "get_weather" }, { name: "get_weather_alerts" }] });
  return matchRule(demo, { text, trigger: options.trigger ?? false, lastToolResult: "", config })?.rule.name;
}

describe("demo rules", () => {
  it("calls a tool named by its exact name, preferring the longest name", () => {
    expect(ruleFor("please use get_weather for Paris")).toBe("call-named-tool");
    const config = new ConfigView({ tools: [{ name: "get_weather" }, { name: "get_weather_alerts" }] });
    expect(findMentionedTool("any get_weather_alerts today?", config)).toBe("get_weather_alerts");
    expect(findMentionedTool("get_weatherish", config)).toBeUndefined();
  });

  it("calls an MCP tool named in the message, custom tools first, preferring the longest name", () => {
    const mcpTools = [
      { serverName: "calc", name: "add" },
      { serverName: "calc", name: "add_numbers" },
    ];
    const config = new ConfigView({ tools: [{ name: "get_weather" }] });
    const match = (text: string) => matchRule(demo, { text, trigger: false, lastToolResult: "", config, mcpTools });
    expect(match("please add_numbers a: 1")?.rule.name).toBe("call-named-mcp-tool");
    expect(match("please add_numbers a: 1")?.mentionedMcpTool).toEqual({ serverName: "calc", name: "add_numbers" });
    expect(match("add_numbers or get_weather")?.rule.name).toBe("call-named-tool");
    expect(match("addition please")?.rule.name).toBe("echo");
  });

  it("asks the user only when ask_question is enabled", () => {
    expect(ruleFor("ask me to choose between tea or coffee")).toBe("ask-the-user");
    expect(ruleFor("ask me something", { config: { harnessSideTools: { userQuestions: { enabled: false } } } })).toBe("echo");
  });

  it("lists files only when list_directory is enabled", () => {
    expect(ruleFor("list the files please")).toBe("list-files");
    expect(ruleFor("list the files please", { config: { harnessSideTools: { listDir: { enabled: false } } } })).toBe("echo");
  });

  it("answers triggers with the trigger rule and everything else with the echo", () => {
    expect(ruleFor("get_weather", { trigger: true })).toBe("trigger");
    expect(ruleFor("hello")).toBe("echo");
  });
});

describe("conditions", () => {
  it("matches on the last tool result, triggers and available tools", () => {
    const scenario = {
      name: "conditions",
      rules: [
        { name: "after-error", when: { lastToolResult: "^Error:" }, actions: [] },
        { name: "with-tool", when: { toolAvailable: "search", trigger: false }, actions: [] },
        { name: "fallback", when: {}, actions: [] },
      ],
    };
    const config = new ConfigView({ tools: [{ name: "search" }] });
    const match = (lastToolResult: string, trigger: boolean): string | undefined => matchRule(scenario, { text: "x", trigger, lastToolResult, config })?.rule.name;
    expect(match("Error: boom", false)).toBe("after-error");
    expect(match("fine", false)).toBe("with-tool");
    expect(match("fine", true)).toBe("fallback");
  });
});

describe("conditions of the releases after 0.1.10", () => {
  const scenario = {
    name: "conditions",
    rules: [
      { name: "interactive", when: { agentBehavior: "INTERACTIVE" as const }, actions: [] },
      { name: "scheduled", when: { scheduled: true }, actions: [] },
      { name: "continuation", when: { continuation: true, text: "summary" }, actions: [] },
      { name: "skill", when: { mentionsSkill: true }, actions: [] },
      { name: "other", when: {}, actions: [] },
    ],
  };
  const config = new ConfigView({});
  const match = (input: Partial<Parameters<typeof matchRule>[1]>) => matchRule(scenario, { text: "hello", trigger: false, lastToolResult: "", config, ...input });

  it("tells the agent's behaviour, harness-initiated turns, continuations and named skills apart", () => {
    expect(match({ agentBehavior: "AGENT_BEHAVIOR_INTERACTIVE" })?.rule.name).toBe("interactive");
    expect(match({ agentBehavior: "AGENT_BEHAVIOR_AUTONOMOUS" })?.rule.name).toBe("other");
    expect(match({ trigger: true, scheduled: true })?.rule.name).toBe("scheduled");
    expect(match({ text: "add a summary", continuation: true })?.rule.name).toBe("continuation");
    expect(match({ text: "add a summary" })?.rule.name).toBe("other");
    expect(match({ text: "use release-notes now", skills: () => ["release", "release-notes"] })).toMatchObject({ rule: { name: "skill" }, mentionedSkill: "release-notes" });
    expect(match({ text: "use releases", skills: () => ["release-notes"] })?.rule.name).toBe("other");
  });
});
