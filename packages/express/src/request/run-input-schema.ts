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

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** Roles whose messages the schema takes as `{ id, role, content: string, name? }`. */
const PLAIN_TEXT_ROLES: ReadonlySet<unknown> = new Set(["user", "assistant", "system", "developer"]);

/**
 * A message of a text-only chat (`id`, a text role, string `content`, maybe a string `name`, nothing
 * else), which the schema accepts and would only copy. Anything else is left to the schema.
 */
function isPlainTextMessage(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  if (typeof value.id !== "string" || typeof value.content !== "string" || !PLAIN_TEXT_ROLES.has(value.role)) return false;
  for (const key in value) {
    if (key === "id" || key === "role" || key === "content") continue;
    if (key === "name" && typeof value.name === "string") continue;
    return false;
  }
  return true;
}

const isOptionalString = (value: unknown): boolean => value === undefined || typeof value === "string";

/** A tool as the schema takes it: string `name` and `description`, a non-null `parameters` and an object `metadata` when present. */
function isPlainTool(value: unknown): boolean {
  if (!isPlainObject(value) || typeof value.name !== "string" || typeof value.description !== "string" || value.parameters === null) return false;
  const metadata = value.metadata;
  return metadata === undefined || (typeof metadata === "object" && metadata !== null && !Array.isArray(metadata));
}

function isPlainContext(value: unknown): boolean {
  return isPlainObject(value) && typeof value.description === "string" && typeof value.value === "string";
}

/**
 * An input envelope (everything but `messages`) in the shapes the schema accepts without changing
 * anything but filling absent `tools` and `context` with `[]`: no `null` state to drop, no resume
 * entries. An exact subset of what the schema accepts; anything else is left to the schema.
 */
function isPlainEnvelope(body: Record<string, unknown>): boolean {
  if (typeof body.threadId !== "string" || typeof body.runId !== "string") return false;
  if (!isOptionalString(body.protocolVersion) || !isOptionalString(body.parentRunId)) return false;
  if (body.state === null || body.forwardedProps === null || body.resume !== undefined) return false;
  const { tools, context } = body;
  return (tools === undefined || (Array.isArray(tools) && tools.every(isPlainTool))) && (context === undefined || (Array.isArray(context) && context.every(isPlainContext)));
}

/**
 * Checks a parsed body against @ag-ui/core's `RunAgentInputSchema`. Issues never echo values.
 *
 * Every request carries the thread's whole history, and the schema copies each message it checks:
 * for a text-only history (the common chat) the messages are checked by `isPlainTextMessage`, an
 * exact subset of what the schema accepts, and the envelope by `isPlainEnvelope` (likewise) or else
 * by the schema itself. Any other message, or any failure, goes through the schema whole, which also
 * names the issues.
 */
export function validateRunInput(body: unknown): RunInputValidation {
  if (isPlainObject(body)) {
    const messages = body.messages;
    if (Array.isArray(messages) && messages.every(isPlainTextMessage)) {
      if (isPlainEnvelope(body)) {
        const input = { ...body, tools: body.tools ?? [], context: body.context ?? [] };
        return { valid: true, input: input as unknown as RunAgentInput };
      }
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
