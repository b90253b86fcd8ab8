import { z } from "zod";
import { EmulatorError } from "../errors/emulator-error.js";
import { normalizeKeys } from "./key-case.js";

// Every schema is loose: clients newer than the emulator may send fields it does not know, and the
// harness (protojson with DiscardUnknown, presumably) does not reject them either.

/** uint32/int32 arrive as numbers; protojson parsers also accept decimal strings. */
const uint = z.union([z.number(), z.string().regex(/^-?\d+$/).transform(Number)]);

/** Enums arrive as names; protojson also accepts their numbers, kept as-is and handled as unknown. */
const enumValue = z.union([z.string(), z.number()]);

const toggle = z.looseObject({ enabled: z.boolean().optional() });

export const toolDeclarationSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  parametersJsonSchema: z.string().optional(),
  responseJsonSchema: z.string().optional(),
});
export type ToolDeclaration = z.infer<typeof toolDeclarationSchema>;

export const harnessSideToolsSchema = z.looseObject({
  find: toggle.optional(),
  runCommand: toggle.optional(),
  subagents: toggle.optional(),
  userQuestions: toggle.optional(),
  fileEdit: toggle.optional(),
  viewFile: toggle.optional(),
  writeToFile: toggle.optional(),
  grepSearch: toggle.optional(),
  listDir: toggle.optional(),
  generateImage: toggle.optional(),
  searchWeb: toggle.optional(),
  readUrlContent: toggle.optional(),
  permissions: z.looseObject({ enforceWorkspaceValidation: z.boolean().optional() }).optional(),
});
export type HarnessSideTools = z.infer<typeof harnessSideToolsSchema>;

const policyRuleSchema = z.looseObject({
  tool: z.string().optional(),
  serverName: z.string().optional(),
  name: z.string().optional(),
  decision: enumValue.optional(),
  denyReason: z.string().optional(),
  isDynamic: z.boolean().optional(),
  ruleId: z.string().optional(),
});
export type PolicyRule = z.infer<typeof policyRuleSchema>;

export const harnessConfigSchema = z.looseObject({
  cascadeId: z.string().optional(),
  tools: z.array(toolDeclarationSchema).optional(),
  harnessSideTools: harnessSideToolsSchema.optional(),
  compactionThreshold: uint.optional(),
  workspaces: z.array(z.looseObject({ filesystemWorkspace: z.looseObject({ directory: z.string().optional() }).optional() })).optional(),
  finishToolSchemaJson: z.string().optional(),
  models: z
    .array(
      z.looseObject({
        name: z.string().optional(),
        types: z.array(enumValue).optional(),
        geminiApiEndpoint: z.looseObject({ apiKey: z.string().optional(), options: z.looseObject({ serviceTier: z.string().optional() }).optional() }).optional(),
      }),
    )
    .optional(),
  enabledHooks: z.array(enumValue).optional(),
  customSubagents: z
    .array(z.looseObject({ name: z.string().optional(), harnessSideTools: harnessSideToolsSchema.optional(), tools: z.array(toolDeclarationSchema).optional() }))
    .optional(),
  sessionContinuationMode: enumValue.optional(),
  policyConfig: z.looseObject({ rules: z.array(policyRuleSchema).optional() }).optional(),
});
export type HarnessConfig = z.infer<typeof harnessConfigSchema>;

export const initializeConversationEventSchema = z.looseObject({ config: harnessConfigSchema.optional() });

const userInputPartSchema = z.looseObject({
  text: z.string().optional(),
  media: z.looseObject({ mimeType: z.string().optional(), description: z.string().optional(), data: z.string().optional() }).optional(),
  slashCommand: z.looseObject({ name: z.string().optional() }).optional(),
});
export const userInputSchema = z.looseObject({ parts: z.array(userInputPartSchema).optional() });
export type UserInput = z.infer<typeof userInputSchema>;

const toolResponseSchema = z.looseObject({
  id: z.string().optional(),
  responseJson: z.string().optional(),
  supplementalMedia: z.array(z.looseObject({ mimeType: z.string().optional() })).optional(),
  errorMessage: z.string().optional(),
});
export type ToolResponse = z.infer<typeof toolResponseSchema>;

const questionResponseSchema = z.looseObject({
  trajectoryId: z.string().optional(),
  stepIndex: uint.optional(),
  cancelled: z.boolean().optional(),
  response: z
    .looseObject({
      answers: z
        .array(
          z.looseObject({
            unanswered: z.boolean().optional(),
            multipleChoiceAnswer: z
              .looseObject({ selectedChoiceIndices: z.array(uint).optional(), freeformResponse: z.string().optional() })
              .optional(),
          }),
        )
        .optional(),
    })
    .optional(),
});
export type QuestionResponse = z.infer<typeof questionResponseSchema>;

const callHookResponseSchema = z.looseObject({
  requestId: z.string().optional(),
  preTurnResult: z.looseObject({ decision: enumValue.optional(), reason: z.string().optional() }).optional(),
  preToolResult: z
    .looseObject({ decision: enumValue.optional(), reason: z.string().optional(), modifiedArgumentsJson: z.string().optional() })
    .optional(),
  emptyResult: z.looseObject({}).optional(),
  errorMessage: z.string().optional(),
  onToolErrorResult: z.looseObject({ customErrorMessage: z.string().optional() }).optional(),
});
export type CallHookResponse = z.infer<typeof callHookResponseSchema>;

const policyDecisionResponseSchema = z.looseObject({
  requestId: z.string().optional(),
  outcome: enumValue.optional(),
  denyReason: z.string().optional(),
});
export type PolicyDecisionResponse = z.infer<typeof policyDecisionResponseSchema>;

export const inputEventSchema = z.looseObject({
  userInput: z.string().optional(),
  complexUserInput: userInputSchema.optional(),
  toolConfirmation: z.looseObject({ trajectoryId: z.string().optional(), stepIndex: uint.optional(), accepted: z.boolean().optional() }).optional(),
  toolResponse: toolResponseSchema.optional(),
  questionResponse: questionResponseSchema.optional(),
  haltRequest: z.boolean().optional(),
  automatedTrigger: z.string().optional(),
  callHookResponse: callHookResponseSchema.optional(),
  sessionEndRequest: z.boolean().optional(),
  policyDecisionResponse: policyDecisionResponseSchema.optional(),
});
export type InputEvent = z.infer<typeof inputEventSchema>;

function parseJsonObject(text: string, what: string): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new EmulatorError("INPUT_INVALID", `${what} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new EmulatorError("INPUT_INVALID", `${what} must be a JSON object`);
  }
  return normalizeKeys(parsed);
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ");
}

/** Parses the first WebSocket frame, which must be an InitializeConversationEvent. */
export function parseInitializeEvent(text: string): HarnessConfig {
  const result = initializeConversationEventSchema.safeParse(parseJsonObject(text, "InitializeConversationEvent"));
  if (!result.success) throw new EmulatorError("INPUT_INVALID", `invalid InitializeConversationEvent: ${describeIssues(result.error)}`);
  if (result.data.config === undefined) throw new EmulatorError("INPUT_INVALID", "InitializeConversationEvent has no config");
  return result.data.config;
}

/** Parses every later WebSocket frame, an InputEvent. */
export function parseInput(text: string): InputEvent {
  const result = inputEventSchema.safeParse(parseJsonObject(text, "InputEvent"));
  if (!result.success) throw new EmulatorError("INPUT_INVALID", `invalid InputEvent: ${describeIssues(result.error)}`);
  return result.data;
}
