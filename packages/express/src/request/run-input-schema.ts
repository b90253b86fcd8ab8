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

/** Checks a parsed body against @ag-ui/core's `RunAgentInputSchema`. Issues never echo values. */
export function validateRunInput(body: unknown): RunInputValidation {
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
