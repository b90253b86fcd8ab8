import { randomUUID } from "node:crypto";

/**
 * A failure the client may see only as a reference: the details (error, stack, paths) go to the
 * server log under `correlationId`, and the client gets a message naming that id so an operator can
 * find them.
 */
export interface FailureReference {
  readonly correlationId: string;
  readonly message: string;
}

export function referenceFailure(summary: string): FailureReference {
  const correlationId = randomUUID();
  return { correlationId, message: `${summary} Reference: ${correlationId}.` };
}

/** The `code` an error object carries, if it is a string. */
export function errorCodeOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}
