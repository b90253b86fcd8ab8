import { setImmediate as nextTurnOfLoop } from "node:timers/promises";
import { sleep } from "@ag-ui-antigravity/foundation";

/** Waits `ms` milliseconds unless the signal aborts first (then rejects with its reason). */
export function abortableSleep(ms: number, options: { signal: AbortSignal }): Promise<void> {
  return sleep(ms, options.signal);
}

/** Yields to the event loop so a zero-delay stream cannot starve other conversations. */
export function yieldToEventLoop(): Promise<void> {
  return nextTurnOfLoop();
}
