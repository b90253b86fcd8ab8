import type { Interrupt } from "@ag-ui/core";
import type { JsonSchema } from "../schema/schema-validator.js";

/** What a server tool passes to `interrupt()` beside the reason. */
export interface InterruptOptions {
  /** A human-readable prompt for whoever answers. */
  message?: string;
  /** Free-form data for the client's UI (what to show, how), sent as the interrupt's `metadata`; the bridge never reads it. */
  metadata?: Record<string, unknown>;
  /** The JSON Schema of the answer; when given, answers that do not validate are refused. */
  responseSchema?: JsonSchema;
  /** Any other field is carried at the top level of the interrupt (AG-UI interrupts are open objects). */
  [extra: string]: unknown;
}

export interface ServerToolInterruptInput {
  id: string;
  reason: string;
  toolCallId: string;
  expiresAt: string;
  options: InterruptOptions;
}

/** The interrupt a server tool raises. The fields the bridge owns cannot be overridden by extras. */
export function serverToolInterrupt(input: ServerToolInterruptInput): Interrupt {
  const { message, metadata, responseSchema, ...extra } = input.options;
  const interrupt: Interrupt & Record<string, unknown> = { ...extra, id: input.id, reason: input.reason, toolCallId: input.toolCallId, expiresAt: input.expiresAt };
  if (message !== undefined) interrupt.message = message;
  if (metadata !== undefined) interrupt.metadata = metadata;
  if (responseSchema !== undefined) interrupt.responseSchema = responseSchema;
  return interrupt;
}
