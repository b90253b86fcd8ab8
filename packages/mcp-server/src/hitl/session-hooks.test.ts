import type { PreToolHookArgs, QuestionsHookArgs } from "@ag-ui-antigravity/harness";
import { describe, expect, it } from "vitest";
import { approvalPolicies, sessionHooks } from "./session-hooks.js";
import type { TurnInteraction } from "./turn-interaction.js";

const question = (overrides: Partial<QuestionsHookArgs> = {}) =>
  ({ conversationId: "c", trajectoryId: "t", stepIndex: 1, questions: [{ question: "Pick", choices: ["a", "b"], isMultiSelect: true }], signal: new AbortController().signal, ...overrides }) as QuestionsHookArgs;
const confirmArgs = { toolName: "run_command", arguments: { CommandLine: "ls" }, argumentsJson: "{}", reason: "policy-confirm", conversationId: "c" } as PreToolHookArgs;

describe("approval policies", () => {
  it("confirms, denies or allows the write-capable builtins, and allows the rest", () => {
    expect(approvalPolicies("ask").map((rule) => `${rule.tool}:${rule.decision}`)).toEqual(["create_file:confirm", "edit_file:confirm", "run_command:confirm", "run_workflow:confirm", "*:allow"]);
    expect(approvalPolicies("deny")[0]).toMatchObject({ decision: "deny", reason: expect.stringContaining("disabled") });
    expect(approvalPolicies("allow").every((rule) => rule.decision === "allow")).toBe(true);
  });
});

describe("session hooks", () => {
  it("asks questions as one form and maps the choices back to indices", async () => {
    const forms: unknown[] = [];
    const interaction: TurnInteraction = {
      notes: [],
      signal: new AbortController().signal,
      elicit: async (form) => {
        forms.push(form);
        return { action: "accept", content: { answer_1: ["b", "a"] } };
      },
    };
    const hooks = sessionHooks(() => interaction);
    await expect(hooks.onQuestions!(question())).resolves.toEqual({ answers: [{ selected: [1, 0] }] });
    expect(forms[0]).toMatchObject({ requestedSchema: { properties: { answer_1: { type: "array", items: { enum: ["a", "b"] } } } } });
  });

  it("treats a declined form as cancelled and a refused approval as a denial", async () => {
    const interaction: TurnInteraction = { notes: [], signal: new AbortController().signal, elicit: async () => ({ action: "decline" }) };
    const hooks = sessionHooks(() => interaction);
    await expect(hooks.onQuestions!(question())).resolves.toEqual({ cancelled: true });
    await expect(hooks.preTool!(confirmArgs)).resolves.toMatchObject({ decision: "deny" });
    await expect(hooks.preTool!({ ...confirmArgs, reason: "hook" })).resolves.toEqual({ decision: "allow" });
  });

  it("refuses with a note the caller sees when the client cannot elicit", async () => {
    const interaction: TurnInteraction = { notes: [], signal: new AbortController().signal, elicit: undefined };
    const hooks = sessionHooks(() => interaction);
    await expect(hooks.onQuestions!(question())).resolves.toEqual({ cancelled: true });
    await expect(hooks.preTool!(confirmArgs)).resolves.toMatchObject({ decision: "deny", reason: expect.stringContaining("does not support elicitation") });
    expect(interaction.notes).toHaveLength(2);
  });
});
