import { checkWireMessage, type WireMessageKind } from "@ag-ui-antigravity/harness/protocol";
import { z } from "zod/v4";
import type { VersionProfile } from "../version/version-profile.js";
import { normalizeKeys } from "./key-case.js";
import { protoErrorOf, protoSyntaxError } from "./proto-error.js";

// These schemas say what the emulator reads of a frame, and are loose. What the played release
// refuses (unknown fields and enum names, wrong JSON types) is decided before them by
// `checkWireMessage`, the protocol package's per-release view (docs/protocol.md, "JSON on the socket").

/** uint32/int32 arrive as numbers; protojson parsers also accept decimal strings. */
const uint = z.union([z.number(), z.string().regex(/^-?\d+$/).transform(Number)]);

/** Enums arrive as names; protojson also accepts their numbers, kept as-is and handled as unknown. */
const enumValue = z.union([z.string(), z.number()]);

const toggle = z.looseObject({ enabled: z.boolean().optional() });

/** genai.Struct in its verbose form; read with `fromGenaiStruct`. */
const genaiStruct = z.looseObject({ fields: z.array(z.looseObject({ name: z.string().optional(), value: z.unknown().optional() })).optional() });

export const toolDeclarationSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  parametersJsonSchema: z.string().optional(),
  responseJsonSchema: z.string().optional(),
});
export type ToolDeclaration = z.infer<typeof toolDeclarationSchema>;

export const harnessSideToolsSchema = z.looseObject({
  find: toggle.optional(),
  runCommand: z.looseObject({ enabled: z.boolean().optional(), enableSandbox: z.boolean().optional() }).optional(),
  subagents: z.looseObject({ enabled: z.boolean().optional(), maxNestingDepth: uint.optional(), allowedSubagents: z.array(z.string()).optional() }).optional(),
  userQuestions: toggle.optional(),
  fileEdit: toggle.optional(),
  viewFile: toggle.optional(),
  writeToFile: toggle.optional(),
  grepSearch: toggle.optional(),
  listDir: toggle.optional(),
  generateImage: toggle.optional(),
  searchWeb: toggle.optional(),
  readUrlContent: toggle.optional(),
  manageTask: toggle.optional(),
  schedule: toggle.optional(),
  runWorkflow: toggle.optional(),
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
  agentBehavior: enumValue.optional(),
  budgetConfig: z
    .looseObject({
      maxModelCalls: uint.optional(),
      maxToolCalls: uint.optional(),
      maxInputTokens: uint.optional(),
      maxOutputTokens: uint.optional(),
      maxTotalTokens: uint.optional(),
      scope: enumValue.optional(),
    })
    .optional(),
  compactionConfig: z.looseObject({ tokenThreshold: uint.optional() }).optional(),
  skillsPaths: z.array(z.string()).optional(),
  skillsConfig: z
    .looseObject({
      enabled: z.boolean().optional(),
      skills: z.array(z.looseObject({ directoryPath: z.string().optional(), skill: z.looseObject({ name: z.string().optional(), description: z.string().optional(), content: z.string().optional() }).optional() })).optional(),
    })
    .optional(),
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
  response: genaiStruct.optional(),
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
    .looseObject({ decision: enumValue.optional(), reason: z.string().optional(), modifiedArgumentsJson: z.string().optional(), modifiedArgs: genaiStruct.optional() })
    .optional(),
  stopResult: z.looseObject({ decision: enumValue.optional(), reason: z.string().optional() }).optional(),
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
  /** Plain text up to 0.1.10, the parts message from 0.1.11 (which release takes which is checked before). */
  userInput: z.union([z.string(), userInputSchema]).optional(),
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

/** A frame read as the played release reads it: its message, or the parse error that release would print. */
export type FrameReading<Message> = { ok: true; message: Message } | { ok: false; error: string };

/** How frames are read: the release played, and whether its refusals apply. */
export interface ReadOptions {
  profile: VersionProfile;
  strict: boolean;
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ");
}

function readFrame<Schema extends z.ZodType>(text: string, kind: WireMessageKind, schema: Schema, options: ReadOptions): FrameReading<z.infer<Schema>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: protoSyntaxError(text, error) };
  }
  if (options.strict) {
    const [issue] = checkWireMessage(kind, parsed, options.profile.version);
    if (issue !== undefined) return { ok: false, error: protoErrorOf(issue, text, parsed) };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return { ok: false, error: `proto: ${kind} must be a JSON object` };
  const result = schema.safeParse(normalizeKeys(parsed));
  if (!result.success) return { ok: false, error: `proto: invalid ${kind}: ${describeIssues(result.error)}` };
  return { ok: true, message: result.data as z.infer<Schema> };
}

/** Reads the first WebSocket frame, an InitializeConversationEvent; an absent config reads as empty. */
export function readInitializeEvent(text: string, options: ReadOptions): FrameReading<HarnessConfig> {
  const reading = readFrame(text, "InitializeConversationEvent", initializeConversationEventSchema, options);
  return reading.ok ? { ok: true, message: reading.message.config ?? {} } : reading;
}

/** Reads every later WebSocket frame, an InputEvent. */
export function readInputEvent(text: string, options: ReadOptions): FrameReading<InputEvent> {
  return readFrame(text, "InputEvent", inputEventSchema, options);
}
