import { EventType, type BaseEvent } from "@ag-ui/client";
import { Observable } from "rxjs";

/** The streamed pieces a reducer appends to what it holds: `delta` goes onto the message or call named by `key`. */
const APPENDED: ReadonlyMap<string, "messageId" | "toolCallId"> = new Map([
  [EventType.TEXT_MESSAGE_CONTENT, "messageId"],
  [EventType.REASONING_MESSAGE_CONTENT, "messageId"],
  [EventType.TOOL_CALL_ARGS, "toolCallId"],
]);

type Delta = BaseEvent & { delta: string } & Record<string, unknown>;

/** Whether `next` only continues `held`: same kind, same target, nothing but its delta and timestamp different. */
function continues(held: Delta, next: BaseEvent): next is Delta {
  if (next.type !== held.type || typeof (next as Partial<Delta>).delta !== "string") return false;
  const fields = next as Delta;
  let count = 0;
  for (const key in fields) {
    if (!Object.hasOwn(fields, key)) continue;
    count += 1;
    if (key !== "delta" && key !== "timestamp" && key !== "rawEvent" && fields[key] !== held[key]) return false;
  }
  let heldCount = 0;
  for (const key in held) if (Object.hasOwn(held, key)) heldCount += 1;
  return count === heldCount;
}

/**
 * The same run with each uninterrupted series of deltas to one message or tool call joined into one
 * event (the first event's fields, the deltas concatenated). `@ag-ui/client`'s reducer copies the
 * thread's whole message list after every event it applies, so a 10 000-delta reply applied event by
 * event copied the transcript 10 000 times; joined, it is applied once, with the same outcome (the
 * reducer appends each delta to what the message or call holds).
 */
export function coalesceDeltas(source: Observable<BaseEvent>): Observable<BaseEvent> {
  return new Observable<BaseEvent>((subscriber) => {
    let held: Delta | undefined;
    let joined: string[] = [];
    const flush = (): void => {
      if (held === undefined) return;
      const event = joined.length === 1 ? held : { ...held, delta: joined.join("") };
      held = undefined;
      joined = [];
      subscriber.next(event);
    };
    const subscription = source.subscribe({
      next: (event) => {
        if (held !== undefined && continues(held, event)) {
          joined.push(event.delta);
          return;
        }
        flush();
        if (APPENDED.has(event.type) && typeof (event as Partial<Delta>).delta === "string") {
          held = event as Delta;
          joined = [held.delta];
          return;
        }
        subscriber.next(event);
      },
      error: (error: unknown) => {
        flush();
        subscriber.error(error);
      },
      complete: () => {
        flush();
        subscriber.complete();
      },
    });
    return () => subscription.unsubscribe();
  });
}
