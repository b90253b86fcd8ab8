import type { StepUpdate } from "../protocol/messages.js";

/** A cumulative field of a step update known to be an earlier value of it plus `delta`. */
export interface TextExtension {
  /** The field's value in the previous frame of the same step (the very string delivered then). */
  base: string;
  /** What this frame appends to `base`; never empty. */
  delta: string;
}

export interface StepTextExtensions {
  text?: TextExtension;
  thinking?: TextExtension;
}

// Keyed by the update object, so nothing is added to the update itself (it is handed to hosts as `raw`).
const extensions = new WeakMap<StepUpdate, StepTextExtensions>();

/**
 * Notes that a decoded update's cumulative fields extend what the same step carried before, as
 * checked on the frame's bytes (conversation/cumulative-text-frames.ts). The normalizer then takes
 * the delta from here instead of comparing the whole cumulative text with what it saw, which would
 * make V8 copy a text built by appending into one flat string again on every frame.
 */
export function noteTextExtensions(update: StepUpdate, found: StepTextExtensions): void {
  extensions.set(update, found);
}

export function textExtensionsOf(update: StepUpdate): StepTextExtensions | undefined {
  return extensions.get(update);
}
