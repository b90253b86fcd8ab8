export interface ScheduledTrigger {
  message: string;
  intervalMs: number;
}

/**
 * Fires configured trigger messages on their intervals. A trigger that comes due while the
 * conversation is busy waits; several missed intervals of one trigger collapse into one delivery.
 * `deliver` is asked to send a due trigger and says whether it could (the conversation is idle).
 */
export class TriggerScheduler {
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #due = new Set<ScheduledTrigger>();
  readonly #deliver: (trigger: ScheduledTrigger) => boolean;
  #stopped = false;

  constructor(triggers: readonly ScheduledTrigger[], deliver: (trigger: ScheduledTrigger) => boolean) {
    this.#deliver = deliver;
    for (const trigger of triggers) {
      const timer = setInterval(() => {
        this.#due.add(trigger);
        this.flush();
      }, trigger.intervalMs);
      // Triggers alone never keep the host process alive.
      timer.unref();
      this.#timers.push(timer);
    }
  }

  /** Delivers due triggers while the conversation accepts them; called on each tick and whenever a turn ends. */
  flush(): void {
    if (this.#stopped) return;
    for (const trigger of [...this.#due]) {
      if (!this.#deliver(trigger)) return;
      this.#due.delete(trigger);
    }
  }

  get pendingCount(): number {
    return this.#due.size;
  }

  stop(): void {
    this.#stopped = true;
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers.length = 0;
    this.#due.clear();
  }
}
