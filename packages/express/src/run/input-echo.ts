import { EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/core";

/**
 * The request's own JSON text, for the RUN_STARTED that echoes its input. RUN_STARTED may carry the
 * run's input, the thread's whole history, and serialised again on every turn it cost about as
 * much as parsing the request did; written as the client sent it, it costs a copy. Only where that
 * text says exactly what serialising the echo would: see `inputEchoOf` and `echoesInput`.
 */
export interface InputEcho {
  /** The validated input the agent is given. */
  readonly input: RunAgentInput;
  /** Its fields, counted once. */
  readonly fieldCount: number;
  /** The request body's JSON text. */
  readonly text: string;
}

/**
 * The echo a request allows, or undefined. The body's top-level fields must be the validated
 * input's, value for value (a field the validation added or changed, such as a default `tools`,
 * is not in the text); the text must hold no line break (an SSE `data:` line would end there) and
 * no `null` (the encoder drops optional nulls, so its output would differ).
 */
export function inputEchoOf(body: unknown, input: RunAgentInput, text: string | undefined): InputEcho | undefined {
  if (text === undefined || typeof body !== "object" || body === null) return undefined;
  const fieldCount = sameFieldsCount(input as unknown as Record<string, unknown>, body as Record<string, unknown>);
  if (fieldCount === undefined || fieldCount !== countFields(body as Record<string, unknown>)) return undefined;
  if (text.includes("\n") || text.includes("\r") || text.includes("null")) return undefined;
  return { input, fieldCount, text };
}

/**
 * Whether `event` is a RUN_STARTED whose input is the echo's, field for field and nothing else (an
 * agent that leaves out a field, adds one, or changes a value gets its event serialised as usual).
 */
export function echoesInput(event: BaseEvent, echo: InputEcho): boolean {
  if (event.type !== EventType.RUN_STARTED) return false;
  const input = (event as { input?: unknown }).input;
  if (typeof input !== "object" || input === null) return false;
  return sameFieldsCount(input as Record<string, unknown>, echo.input as unknown as Record<string, unknown>) === echo.fieldCount;
}

/** The number of fields of `subject` when each has the same value in `reference` (undefined otherwise). */
function sameFieldsCount(subject: Record<string, unknown>, reference: Record<string, unknown>): number | undefined {
  let count = 0;
  for (const key in subject) {
    if (!Object.hasOwn(subject, key) || subject[key] !== reference[key] || !Object.hasOwn(reference, key)) return undefined;
    count += 1;
  }
  return count;
}

function countFields(value: Record<string, unknown>): number {
  let count = 0;
  for (const key in value) if (Object.hasOwn(value, key)) count += 1;
  return count;
}
