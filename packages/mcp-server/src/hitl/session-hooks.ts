import { WRITE_CAPABLE_BUILTIN_TOOLS, type ConversationHooks, type ToolPolicy, type QuestionsHookResult } from "@ag-ui-antigravity/harness";
import type { ApprovalPolicy } from "../server-options.js";
import { answersOfForm, approvalForm, isApproved, questionsForm } from "./elicitation-forms.js";
import type { TurnInteraction } from "./turn-interaction.js";

/** Statement sent to the model (and repeated to the caller) when the MCP client cannot be asked. */
const noElicitation = "this MCP client does not support elicitation, so it cannot be asked";

/**
 * The policies of an approval mode. `ask` confirms write-capable builtins through the pre-tool hook;
 * `deny` refuses them; `allow` runs everything. The trailing `*` allow satisfies the harness's
 * safety gate for everything else.
 */
export function approvalPolicies(approval: ApprovalPolicy): ToolPolicy[] {
  const decision = approval === "ask" ? "confirm" : approval;
  const writeRules: ToolPolicy[] = WRITE_CAPABLE_BUILTIN_TOOLS.map((tool) => ({
    tool,
    decision,
    ...(decision === "deny" ? { reason: `${tool} is disabled on this MCP server (approval policy "deny").` } : {}),
  }));
  return [...writeRules, { tool: "*", decision: "allow" }];
}

/**
 * The conversation hooks of one session: questions and approvals go to whichever MCP client runs
 * the current turn (`interaction()`), as elicitation requests; with no turn running, or a client
 * that cannot be asked, they are refused with a statement the model reads.
 */
export function sessionHooks(interaction: () => TurnInteraction | undefined): ConversationHooks {
  return {
    onQuestions: async (args): Promise<QuestionsHookResult> => {
      const current = interaction();
      if (current?.elicit === undefined) {
        current?.notes.push(`The agent asked "${args.questions.map((question) => question.question).join('", "')}", but ${noElicitation}; the question was cancelled.`);
        return { cancelled: true };
      }
      const result = await current.elicit(questionsForm(args.questions), { signal: args.signal });
      return answersOfForm(result, args.questions);
    },
    preTool: async (args) => {
      if (args.reason !== "policy-confirm") return { decision: "allow" };
      const current = interaction();
      if (current?.elicit === undefined) {
        const reason = `${args.toolName} needs approval, but ${noElicitation}. Do not retry it.`;
        current?.notes.push(`The agent wanted to run ${args.toolName}; it was refused because ${noElicitation} for approval.`);
        return { decision: "deny", reason };
      }
      // The pre-tool hook has no abort signal of its own; the turn's signal bounds the question.
      const result = await current.elicit(approvalForm(args.toolName, args.arguments), { signal: current.signal });
      return isApproved(result) ? { decision: "allow" } : { decision: "deny", reason: "The user did not approve this tool call." };
    },
    onConfirmation: async (args) => {
      const current = interaction();
      if (current?.elicit === undefined) {
        current?.notes.push(`The agent asked to confirm ${args.toolName ?? "a tool call"}; it was refused because ${noElicitation}.`);
        return false;
      }
      return isApproved(await current.elicit(approvalForm(args.toolName ?? "a tool", args.arguments), { signal: args.signal }));
    },
  };
}
