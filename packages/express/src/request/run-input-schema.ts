import type { RunAgentInput } from "@ag-ui/core";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import type { HttpErrorIssue } from "../errors/http-error.js";

/** Issues beyond this many are summarised: a hostile body must not produce a huge error reply. */
const MAX_REPORTED_ISSUES = 20;

// `.loose()` keeps top-level fields a newer client may send; the agent decides
// whether it understands them. Nested objects follow @ag-ui/core's own leniency.
const runAgentInputSchema = RunAgentInputSchema.loose();

export type RunInputValidation =
  | { readonly valid: true; readonly input: RunAgentInput }
  | { readonly valid: false; readonly issues: HttpErrorIssue[] };

/** Roles whose messages the schema takes as `{ id, role, content: string, name? }`. */
const PLAIN_TEXT_ROLES: ReadonlySet<unknown> = new Set(["user", "assistant", "system", "developer"]);

/**
 * A message of a text-only chat (`id`, a text role, string `content`, maybe a string `name`, nothing
 * else), which the schema accepts and would only copy. Anything else is left to the schema.
 */
function isPlainTextMessage(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  if (typeof message.id !== "string" || typeof message.content !== "string" || !PLAIN_TEXT_ROLES.has(message.role)) return false;
  for (const key in message) {
    if (key === "id" || key === "role" || key === "content") continue;
    if (key === "name" && typeof message.name === "string") continue;
    return false;
  }
  return Object.getPrototypeOf(message) === Object.prototype;
}

/**
 * Checks a parsed body against @ag-ui/core's `RunAgentInputSchema`. Issues never echo values.
 *
 * Every request carries the thread's whole history, and the schema copies each message it checks:
 * for a text-only history (the common chat) the messages are checked by `isPlainTextMessage`, an
 * exact subset of what the schema accepts, and the rest of the input by the schema itself. Any other
 * message, or any failure, goes through the schema whole, which also names the issues.
 */
export function validateRunInput(body: unknown): RunInputValidation {
  if (typeof body === "object" && body !== null && !Array.isArray(body)) {
    const messages = (body as { messages?: unknown }).messages;
    if (Array.isArray(messages) && messages.every(isPlainTextMessage)) {
      const envelope = runAgentInputSchema.safeParse({ ...body, messages: [] });
      // The schema's output type spells `state` and `forwardedProps` as `any`; it is the same shape.
      if (envelope.success) return { valid: true, input: { ...(envelope.data as RunAgentInput), messages: messages as RunAgentInput["messages"] } };
    }
  }
  const result = runAgentInputSchema.safeParse(body);
  if (result.success) {
    // The schema's output type spells `state` and `forwardedProps` as `any`; it is the same shape.
    return { valid: true, input: result.data as RunAgentInput };
  }
  const issues = result.error.issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => ({
    path: toPointer(issue.path),
    message: issue.message,
  }));
  const omitted = result.error.issues.length - issues.length;
  if (omitted > 0) issues.push({ path: "", message: `${omitted} more issue(s) omitted` });
  return { valid: false, issues };
}

function toPointer(path: readonly PropertyKey[]): string {
  return path.map((segment) => `/${String(segment).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}
