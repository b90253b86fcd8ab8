import type { PreToolHookArgs, PreToolHookResult, QuestionsHookArgs, QuestionsHookResult } from "../harness/harness-shapes.js";
import { approvalDecision, approvalInterrupt, coerceApprovalPayload, deniedStatement } from "../interrupts/approval-interrupt.js";
import { coerceQuestionPayload, describeQuestions, harnessAnswers, questionInterrupt, type QuestionPayload } from "../interrupts/question-interrupt.js";
import type { HandlerHost } from "./handler-host.js";

/*
 * The bridge's harness hooks (`BridgeHooks`): the harness's `ask_question` requests and its pre-tool
 * approvals, each turned into an interrupt the client is told about and parked until a run answers.
 * Apart from the bridge because each is a small protocol of its own (which calls are exempt, which
 * id an approval's call has, what a denial reports), and apart from the host tools because the
 * harness calls these around any tool, not as one.
 */

/** `BridgeHooks.onQuestions`: parks the questions as one question interrupt and returns the answers, or `cancelled`. */
export async function askQuestions(host: HandlerHost, args: QuestionsHookArgs): Promise<QuestionsHookResult> {
  const questions = describeQuestions(args.questions);
  const { expiresAt, expiresAtMs } = host.desk.deadline();
  const interrupt = questionInterrupt({ id: host.createId(), questions, expiresAt });
  host.notify({ type: "interrupt", interrupt });
  const answer = await host.desk.park({ kind: "question", id: interrupt.id, interrupt, coerce: (raw) => coerceQuestionPayload(questions, raw) }, expiresAtMs, args.signal);
  if (answer.status !== "resolved") return { cancelled: true };
  return { answers: harnessAnswers(answer.payload as QuestionPayload) };
}

/**
 * `BridgeHooks.preTool`: allows an exempt call (a frontend tool, one of `silentToolNames`, an
 * auto-approved tool) at once, and parks any other as an approval interrupt whose answer allows,
 * edits or denies it.
 */
export async function askApproval(host: HandlerHost, args: PreToolHookArgs, silentToolNames: ReadonlySet<string>): Promise<PreToolHookResult> {
  const exempt = host.tools.isFrontendTool(args.toolName) || silentToolNames.has(args.toolName) || (host.options.autoApproveTools ?? []).includes(args.toolName);
  if (exempt) return { decision: "allow" };
  const callId = args.callId === undefined || args.callId === "" ? undefined : args.callId;
  // The bridge's own tools have no harness card to share an id with (their mirror steps are dropped).
  const hostTool = host.tools.hostToolNames().has(args.toolName);
  const resolved = hostTool ? undefined : host.options.toolCallIdOf?.({
    toolName: args.toolName,
    ...(callId === undefined ? {} : { callId }),
    ...(args.serverName === undefined ? {} : { serverName: args.serverName }),
    ...(args.trajectoryId === undefined ? {} : { trajectoryId: args.trajectoryId }),
    ...(args.stepIndex === undefined ? {} : { stepIndex: args.stepIndex }),
  });
  const toolCallId = resolved ?? callId ?? host.createId();
  const argumentsSchema = host.tools.serverToolParameters(args.toolName);
  const { expiresAt, expiresAtMs } = host.desk.deadline();
  const interrupt = approvalInterrupt({ id: host.createId(), toolCallId, toolName: args.toolName, arguments: args.arguments, argumentsSchema, expiresAt });
  host.notify({ type: "interrupt", interrupt, approval: { toolCallId, toolName: args.toolName, arguments: args.arguments, ...(hostTool ? { hostTool } : {}) } });
  const answer = await host.desk.park({ kind: "approval", id: interrupt.id, interrupt, coerce: coerceApprovalPayload }, expiresAtMs, undefined);
  const decision = approvalDecision(answer);
  if (decision.decision === "deny") {
    // Whether the harness then reports the call as an error step, and in what shape, is not known
    // (docs/protocol.md, "Assumptions and how we hedge them"): the denial is reported from here.
    host.notify({ type: "tool-denied", toolCallId, toolName: args.toolName, arguments: args.arguments, reason: decision.reason ?? deniedStatement, ...(hostTool ? { hostTool } : {}) });
  }
  return decision;
}
