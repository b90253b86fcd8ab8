import type { z } from "zod/v4";
import type { DriftEntry, DriftRegistry } from "./drift.js";
import {
  HarnessConfigSchema,
  InitializeConversationEventSchema,
  InputEventSchema,
  OutputEventSchema,
  type HarnessConfig,
  type InitializeConversationEvent,
  type InputEvent,
  type OutputEvent,
} from "./messages.js";
import { ProtocolError, type ProtocolIssue } from "./protocol-error.js";
import { normalizeWireValue } from "./schema-walk.js";
import { plainTextStepEvent } from "./text-step-fast-path.js";
import { plainTrajectoryStateEvent } from "./trajectory-state-fast-path.js";
import { plainUsageUpdateEvent } from "./usage-update-fast-path.js";

export interface ParseOptions {
  /** Receives every unknown field and unknown enum value of a message that parsed. */
  drift?: DriftRegistry;
}

/**
 * Parses one harness → client WebSocket frame (a JSON string or an already-parsed value).
 *
 * @example
 * const drift = new DriftRegistry();
 * const event = parseOutputEvent(frameText, { drift });
 * if (outputEventKind(event) === "stepUpdate") render(event.stepUpdate);
 */
export function parseOutputEvent(input: unknown, options: ParseOptions = {}): OutputEvent {
  const value = typeof input === "string" ? parseJson(input, "OutputEvent") : input;
  return plainTextStepEvent(value) ?? plainTrajectoryStateEvent(value) ?? plainUsageUpdateEvent(value) ?? parseMessage(OutputEventSchema, "OutputEvent", value, options);
}

/**
 * Parses one client → harness WebSocket frame after the first. Known snake_case keys are accepted
 * because Python-style clients may send them and protobuf JSON parsers accept both spellings.
 *
 * @example
 * const input = parseInputEvent('{"tool_confirmation": {"trajectory_id": "t", "step_index": 0, "accepted": true}}');
 * input.toolConfirmation?.accepted; // true
 */
export function parseInputEvent(input: unknown, options: ParseOptions = {}): InputEvent {
  return parseMessage(InputEventSchema, "InputEvent", input, options);
}

/**
 * Parses the first client → harness WebSocket frame, `{config: HarnessConfig}`.
 *
 * @example
 * const { config } = parseInitializeConversationEvent(firstFrameText);
 */
export function parseInitializeConversationEvent(input: unknown, options: ParseOptions = {}): InitializeConversationEvent {
  return parseMessage(InitializeConversationEventSchema, "InitializeConversationEvent", input, options);
}

/**
 * Parses a HarnessConfig on its own (the `config` of the init event).
 *
 * @example
 * const config = parseHarnessConfig({ cascadeId: "", models: [{ name: "gemini-2.5-flash", types: ["MODEL_TYPE_TEXT"] }] });
 */
export function parseHarnessConfig(input: unknown, options: ParseOptions = {}): HarnessConfig {
  return parseMessage(HarnessConfigSchema, "HarnessConfig", input, options);
}

function parseMessage<Schema extends z.ZodType>(
  schema: Schema,
  messageType: string,
  input: unknown,
  options: ParseOptions,
): z.infer<Schema> {
  const value = typeof input === "string" ? parseJson(input, messageType) : input;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ProtocolError("PROTOCOL_INVALID_MESSAGE", `${messageType} must be a JSON object`, {
      messageType,
      issues: [{ path: [], message: `expected an object, got ${value === null ? "null" : Array.isArray(value) ? "array" : typeof value}` }],
    });
  }
  const drift: DriftEntry[] = [];
  const normalized = normalizeWireValue(schema, value, messageType, drift);
  const result = schema.safeParse(normalized);
  if (!result.success) {
    const issues: ProtocolIssue[] = result.error.issues.map((issue) => ({
      path: issue.path.map((segment) => (typeof segment === "symbol" ? String(segment) : segment)),
      message: issue.message,
      code: issue.code,
    }));
    const summary = issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ");
    throw new ProtocolError("PROTOCOL_INVALID_MESSAGE", `invalid ${messageType}: ${summary}`, { messageType, issues }, {
      cause: result.error,
    });
  }
  // Drift is recorded only for messages that parsed, so a rejected message is not counted twice.
  for (const entry of drift) options.drift?.record(entry);
  return result.data;
}

function parseJson(text: string, messageType: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ProtocolError(
      "PROTOCOL_INVALID_MESSAGE",
      `${messageType} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      { messageType, issues: [{ path: [], message: "invalid JSON" }] },
      { cause: error },
    );
  }
}
