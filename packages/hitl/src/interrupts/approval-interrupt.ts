import type { Interrupt } from "@ag-ui/core";
import type { PreToolHookResult } from "../harness/harness-shapes.js";
import { isPlainObject } from "../json/json-value.js";
import type { JsonSchema } from "../schema/schema-validator.js";
import { abandonStatement, type InterruptAnswer } from "./interrupt-answer.js";

/** The `reason` of an approval interrupt: AG-UI's core reason for a tool-bound interrupt. */
export const approvalReason = "tool_call";

/** The payload an approval interrupt accepts. */
export interface ApprovalPayload {
  /** True lets the call run (with `editedArgs` when given); false denies it and the model is told so. */
  approved: boolean;
  /** Why the user denied the call; the model reads it. */
  reason?: string;
  /** A full replacement of the call's arguments (approve with edits). */
  editedArgs?: Record<string, unknown>;
}

export const deniedStatement = "The user denied this tool call.";
export const cancelledApprovalStatement = "The user cancelled the approval request.";

/**
 * The JSON Schema of an approval answer. `editedArgs` is how AG-UI signals approve-with-edits; when
 * the tool's own argument schema is known the edited arguments must satisfy it, and a denial may not
 * carry edits.
 */
export function approvalResponseSchema(argumentsSchema: JsonSchema | undefined): JsonSchema {
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: {
      approved: { type: "boolean", description: "Whether the tool call may run." },
      reason: { type: "string", description: "Why the call was denied; the model reads it." },
      editedArgs: { ...(argumentsSchema ?? { type: "object" }), description: "Replacement arguments to run the call with." },
    },
    required: ["approved"],
    additionalProperties: false,
    if: { properties: { approved: { const: false } } },
    then: { not: { required: ["editedArgs"] } },
  };
}

export interface ApprovalInterruptInput {
  id: string;
  toolCallId: string;
  toolName: string;
  arguments: Record<string, unknown>;
  argumentsSchema: JsonSchema | undefined;
  expiresAt: string;
}

export function approvalInterrupt(input: ApprovalInterruptInput): Interrupt {
  return {
    id: input.id,
    reason: approvalReason,
    message: `Allow the agent to run ${input.toolName}?`,
    toolCallId: input.toolCallId,
    responseSchema: approvalResponseSchema(input.argumentsSchema),
    expiresAt: input.expiresAt,
    metadata: { kind: "antigravity:tool_approval", toolName: input.toolName, arguments: input.arguments },
  };
}

const yes = new Set(["yes", "y", "true", "approve", "approved", "allow", "ok"]);
const no = new Set(["no", "n", "false", "deny", "denied", "reject", "rejected"]);

/**
 * Reads the loose approval shapes clients send into the canonical payload: a boolean; yes/no words;
 * `{allow}` for `{approved}`; `message` for `reason`; `edited_args` / `arguments` for `editedArgs`.
 * Anything else is passed on unchanged and refused by the schema.
 */
export function coerceApprovalPayload(raw: unknown): unknown {
  if (typeof raw === "boolean") return { approved: raw };
  if (typeof raw === "string") {
    const word = raw.trim().toLowerCase();
    if (yes.has(word)) return { approved: true };
    if (no.has(word)) return { approved: false };
    return raw;
  }
  if (!isPlainObject(raw)) return raw;
  const payload: Record<string, unknown> = {};
  const approved = raw.approved ?? raw.allow ?? raw.allowed;
  if (approved !== undefined) payload.approved = typeof approved === "string" ? (yes.has(approved.toLowerCase()) ? true : no.has(approved.toLowerCase()) ? false : approved) : approved;
  const reason = raw.reason ?? raw.message;
  if (reason !== undefined) payload.reason = reason;
  const edited = raw.editedArgs ?? raw.edited_args ?? raw.arguments;
  if (edited !== undefined) payload.editedArgs = edited;
  return payload;
}

/** The pre-tool hook's decision for a settled approval interrupt. */
export function approvalDecision(answer: InterruptAnswer): PreToolHookResult {
  if (answer.status === "cancelled") return { decision: "deny", reason: cancelledApprovalStatement };
  if (answer.status === "abandoned") return { decision: "deny", reason: abandonStatement(answer.cause) };
  const payload = answer.payload as ApprovalPayload;
  if (!payload.approved) return { decision: "deny", reason: payload.reason ?? deniedStatement };
  return payload.editedArgs === undefined ? { decision: "allow" } : { decision: "allow", arguments: payload.editedArgs };
}
