/**
 * How a parked interrupt was settled. `cancelled` is the user's explicit refusal (a resume entry
 * with status "cancelled"); `abandoned` means the user moved on without answering (a new message,
 * or the deadline passed). Tools and hooks can tell the two apart and tell the model accordingly.
 */
export type InterruptAnswer =
  | { status: "resolved"; payload: unknown }
  | { status: "cancelled"; payload?: unknown }
  | { status: "abandoned"; payload?: undefined; cause: AbandonCause };

/** Why a parked request was abandoned: the user sent new input, or its deadline passed. */
export type AbandonCause = "new-input" | "expired";

/** How an interrupt was settled: the `status` of its `InterruptAnswer`. */
export type InterruptStatus = InterruptAnswer["status"];

/** What the model reads when the user sent a new message instead of answering. */
export const abandonedStatement =
  "The user sent a new message instead of answering this request, so it was not answered. Do not report it as declined; continue with the user's new message.";

/** What the model reads when nobody answered before the deadline. */
export const expiredStatement = "Nobody answered this request before it expired, so it was not answered.";

/** The statement the model reads for an abandoned request. */
export function abandonStatement(cause: AbandonCause): string {
  return cause === "expired" ? expiredStatement : abandonedStatement;
}
