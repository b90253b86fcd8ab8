import type { OutputEvent, UsageMetadata } from "./messages.js";

// What the wire client needs of an OutputEvent besides parsing it, apart from parse.ts: that module
// brings the message schemas with it, which the wire client loads only when it opens its first
// conversation (conversation.ts, loadOutputEventParser).

/**
 * Compact proto3 JSON of a message, as sent on the WebSocket.
 *
 * @example
 * socket.send(serializeMessage({ userInput: "hello" } satisfies InputEvent));
 */
export function serializeMessage(message: object): string {
  return JSON.stringify(message);
}

/**
 * The cumulative usage an OutputEvent carries: `usageUpdate.total` (0.1.10+) or the ≤0.1.9
 * envelope `usageMetadata`, which mean the same thing.
 */
export function usageOf(event: OutputEvent): UsageMetadata | undefined {
  return event.usageUpdate?.total ?? event.usageMetadata;
}

export const OUTPUT_EVENT_KINDS = [
  "stepUpdate",
  "trajectoryStateUpdate",
  "toolCall",
  "initializeConversationResponse",
  "callHookRequest",
  "sessionEndResponse",
  "policyDecisionRequest",
  "usageUpdate",
] as const;
export type OutputEventKind = (typeof OUTPUT_EVENT_KINDS)[number] | "usageMetadata" | "unknown";

/**
 * Which payload an OutputEvent carries. An event holding only the ≤0.1.9 envelope usage is
 * "usageMetadata"; one holding no known payload (a newer harness's event) is "unknown".
 */
export function outputEventKind(event: OutputEvent): OutputEventKind {
  for (const kind of OUTPUT_EVENT_KINDS) {
    if (event[kind] !== undefined) return kind;
  }
  return event.usageMetadata === undefined ? "unknown" : "usageMetadata";
}
