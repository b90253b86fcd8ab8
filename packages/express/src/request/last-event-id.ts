import type { Request } from "express";
import { type EventCursor, parseEventCursor } from "../stream/event-ids.js";

export type LastEventIdReading = { readonly ok: true; readonly cursor: EventCursor | undefined } | { readonly ok: false; readonly message: string };

/**
 * Where a reconnecting client's stream broke off: the SSE `Last-Event-ID` header, or the body's
 * `lastSeenEventId` (the field CopilotKit's runtime reads on its connect route). Absent or null
 * means from the start; anything else must be an id this binding wrote.
 */
export function readLastEventId(request: Request, body: unknown): LastEventIdReading {
  const header = request.headers["last-event-id"];
  const fromBody = typeof body === "object" && body !== null ? (body as Record<string, unknown>)["lastSeenEventId"] : undefined;
  const value = typeof header === "string" && header.length > 0 ? header : fromBody;
  if (value === undefined || value === null) return { ok: true, cursor: undefined };
  const cursor = typeof value === "string" ? parseEventCursor(value) : undefined;
  if (cursor === undefined) return { ok: false, message: "Last-Event-ID (or lastSeenEventId) is not an event id this server sent." };
  return { ok: true, cursor };
}
