import { z } from "zod/v4";
import { HOOK_DECISION_VALUES, POLICY_EVALUATION_OUTCOME_VALUES, STOP_DECISION_VALUES } from "../enums.js";
import { registerAlternatives, since, until } from "../versioned.js";
import { enumField, int32Field } from "../wire-types.js";
import { GenaiStructSchema, markerMessage, MediaSchema, message, UserInputSchema } from "./common.js";

/*
 * InputEvent: every frame the client sends after the first. Its arms are one oneof: a frame sets
 * exactly one of them.
 */

export const ToolConfirmationSchema = message({ trajectoryId: z.string(), stepIndex: int32Field, accepted: z.boolean() });

export const ToolResponseSchema = message({
  id: z.string(),
  responseJson: z.string(),
  supplementalMedia: z.array(MediaSchema),
  response: GenaiStructSchema,
  errorMessage: z.string(),
});

export const UserQuestionAnswerSchema = message(
  {
    unanswered: z.boolean(),
    multipleChoiceAnswer: message({ selectedChoiceIndices: z.array(int32Field), freeformResponse: z.string() }),
  },
  { oneofs: [["unanswered", "multipleChoiceAnswer"]] },
);

export const UserQuestionsResponseSchema = message(
  {
    trajectoryId: z.string(),
    stepIndex: int32Field,
    cancelled: z.boolean(),
    response: message({ answers: z.array(UserQuestionAnswerSchema) }),
  },
  { oneofs: [["cancelled", "response"]] },
);

export const PreTurnResultSchema = message({ decision: enumField(HOOK_DECISION_VALUES), reason: z.string() });
export const PreToolResultSchema = message({
  decision: enumField(HOOK_DECISION_VALUES),
  reason: z.string(),
  /** Edited arguments as JSON text, up to 0.1.16. */
  modifiedArgumentsJson: until("0.1.17", z.string()),
  /** Edited arguments as a genai.Struct, from 0.1.17 (a plain JSON object is refused). */
  modifiedArgs: since("0.1.17", GenaiStructSchema),
});
/** The answer to a STOP hook (0.1.16): let the agent stop, or make it go on with `reason` as its next instruction. */
export const StopResultSchema = message({ decision: enumField(STOP_DECISION_VALUES), reason: z.string() });

export const CallHookResponseSchema = message(
  {
    requestId: z.string(),
    preTurnResult: PreTurnResultSchema,
    preToolResult: PreToolResultSchema,
    emptyResult: markerMessage(),
    errorMessage: z.string(),
    onToolErrorResult: message({ customErrorMessage: z.string() }),
    stopResult: since("0.1.16", StopResultSchema),
  },
  { oneofs: [["preTurnResult", "preToolResult", "emptyResult", "errorMessage", "onToolErrorResult", "stopResult"]] },
);

export const PolicyDecisionResponseSchema = message({
  requestId: z.string(),
  outcome: enumField(POLICY_EVALUATION_OUTCOME_VALUES),
  denyReason: z.string(),
});

/** Plain text up to 0.1.10; from 0.1.11 the parts message that 0.1.10 called `complexUserInput`. */
const userInputField = registerAlternatives(z.union([z.string(), UserInputSchema]), [
  { range: { until: "0.1.11" }, schema: z.string() },
  { range: { since: "0.1.11" }, schema: UserInputSchema },
]);

const inputArms = [
  "userInput",
  "complexUserInput",
  "toolConfirmation",
  "toolResponse",
  "questionResponse",
  "haltRequest",
  "automatedTrigger",
  "callHookResponse",
  "sessionEndRequest",
  "policyDecisionResponse",
] as const;

export const InputEventSchema = message(
  {
    userInput: userInputField,
    toolConfirmation: ToolConfirmationSchema,
    toolResponse: ToolResponseSchema,
    questionResponse: UserQuestionsResponseSchema,
    haltRequest: z.boolean(),
    automatedTrigger: z.string(),
    complexUserInput: until("0.1.11", UserInputSchema),
    callHookResponse: CallHookResponseSchema,
    sessionEndRequest: z.boolean(),
    policyDecisionResponse: since("0.1.10", PolicyDecisionResponseSchema),
  },
  { oneofs: [inputArms] },
);

export type ToolConfirmation = z.infer<typeof ToolConfirmationSchema>;
export type ToolResponse = z.infer<typeof ToolResponseSchema>;
export type UserQuestionAnswer = z.infer<typeof UserQuestionAnswerSchema>;
export type UserQuestionsResponse = z.infer<typeof UserQuestionsResponseSchema>;
export type PreTurnResult = z.infer<typeof PreTurnResultSchema>;
export type PreToolResult = z.infer<typeof PreToolResultSchema>;
export type StopResult = z.infer<typeof StopResultSchema>;
export type CallHookResponse = z.infer<typeof CallHookResponseSchema>;
export type PolicyDecisionResponse = z.infer<typeof PolicyDecisionResponseSchema>;
export type InputEvent = z.infer<typeof InputEventSchema>;
