import { setTimeout as wait } from "node:timers/promises";
import { abortReason } from "./abort-reason.js";

/**
 * Waits `milliseconds`, rejecting early with the signal's reason (not Node's wrapping AbortError,
 * so callers see what the aborting side said). The timer never keeps the process alive, and
 * `node:timers/promises` removes its abort listener when the wait settles.
 */
export async function sleep(milliseconds: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) throw abortReason(signal);
  if (milliseconds <= 0) return;
  try {
    await wait(milliseconds, undefined, signal === undefined ? { ref: false } : { ref: false, signal });
  } catch (error) {
    if (signal?.aborted) throw abortReason(signal);
    throw error;
  }
}

/** Like `sleep`, but an abort ends the wait early instead of rejecting: for pauses a shutdown may cut short. */
export function pause(milliseconds: number, signal?: AbortSignal): Promise<void> {
  return sleep(milliseconds, signal).catch(() => undefined);
}
