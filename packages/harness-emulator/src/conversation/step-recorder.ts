import type { UsageMetadata } from "../wire/output-messages.js";
import type { OutputChannel } from "../wire/output-channel.js";
import type { StepUpdate } from "../wire/output-messages.js";

/**
 * Sends step updates and remembers the latest state of every step, which is the conversation's
 * history (what a resumed conversation returns). Deltas are per-update and never stored.
 */
export class StepRecorder {
  readonly #channel: OutputChannel;
  readonly #steps = new Map<string, StepUpdate>();
  readonly #nextIndex = new Map<string, number>();

  constructor(options: { channel: OutputChannel; history: readonly StepUpdate[] }) {
    this.#channel = options.channel;
    for (const step of options.history) {
      this.#steps.set(`${step.trajectoryId}:${step.stepIndex}`, step);
      this.#nextIndex.set(step.trajectoryId, Math.max(this.#nextIndex.get(step.trajectoryId) ?? 0, step.stepIndex + 1));
    }
  }

  /** Allocates the next step index of a trajectory (indices increase per trajectory from 0). */
  allocate(trajectoryId: string): number {
    const index = this.#nextIndex.get(trajectoryId) ?? 0;
    this.#nextIndex.set(trajectoryId, index + 1);
    return index;
  }

  /** Sends one update of a step and records its state. */
  publish(step: StepUpdate, extras: { usageMetadata?: UsageMetadata } = {}): void {
    this.#channel.send({ stepUpdate: step }, extras);
    const { textDelta: _textDelta, thinkingDelta: _thinkingDelta, ...state } = step;
    this.#steps.set(`${step.trajectoryId}:${step.stepIndex}`, state);
  }

  /** Re-sends a step's current state unchanged, as the harness does on its internal ticks. */
  rebroadcast(step: StepUpdate): void {
    this.#channel.send({ stepUpdate: step });
  }

  get isEmpty(): boolean {
    return this.#steps.size === 0;
  }

  history(): StepUpdate[] {
    return [...this.#steps.values()];
  }
}
