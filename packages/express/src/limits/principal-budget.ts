/** How much of the server one principal (or, without auth, one client address) may hold at once. */
export interface PrincipalBudgetLimits {
  /** Runs streaming at once. */
  readonly maxConcurrentRuns: number;
  /** Threads whose turn waits on this principal's answer (a question, an approval, a frontend tool). */
  readonly maxParkedThreads: number;
  /** How long a park counts when no later run on its thread says otherwise; the agent's park timeout. */
  readonly parkedTtlMs: number;
}

export type BudgetRefusal = { code: "RATE_LIMITED"; message: string; retryAfterSeconds: number };

/** A run admitted by the budget; `end` says how it ended, once. */
export interface BudgetTicket {
  end(outcome: "parked" | "ended"): void;
}

const sweepAbove = 10_000;

interface Holdings {
  running: number;
  /** Parked thread → when the park stops counting. */
  parked: Map<string, number>;
}

/**
 * Per-principal budgets, so one client cannot take every session of an agent: a principal past its
 * concurrent runs, or starting a new thread while its parks are at the cap, gets 429 with
 * Retry-After; everyone else is unaffected. Parks count against whoever's run parked them, and a run
 * on a thread that principal has parked (the answer) is always admitted. What the binding sees is
 * what it counts: a park is learnt from `RUN_FINISHED.outcome`, and released by the thread's next
 * run that does not park again, or after `parkedTtlMs`.
 */
export class PrincipalBudget {
  readonly #limits: PrincipalBudgetLimits;
  readonly #now: () => number;
  readonly #holdings = new Map<string, Holdings>();

  constructor(limits: PrincipalBudgetLimits, now: () => number = Date.now) {
    this.#limits = limits;
    this.#now = now;
  }

  /** Admits a run of `principal` on `threadId`, or says why not. */
  begin(principal: string, threadId: string): BudgetTicket | BudgetRefusal {
    // Parks are expired lazily per principal; one that never comes back is swept with the rest here.
    if (this.#holdings.size > sweepAbove) this.#sweep();
    const holdings = this.#holdingsOf(principal);
    this.#expire(holdings);
    if (holdings.running >= this.#limits.maxConcurrentRuns) {
      this.#forgetIfEmpty(principal, holdings);
      return { code: "RATE_LIMITED", message: `Too many runs at once from this client (at most ${this.#limits.maxConcurrentRuns}); retry when one has finished.`, retryAfterSeconds: 1 };
    }
    if (!holdings.parked.has(threadId) && holdings.parked.size >= this.#limits.maxParkedThreads) {
      const soonest = Math.min(...holdings.parked.values());
      this.#forgetIfEmpty(principal, holdings);
      return {
        code: "RATE_LIMITED",
        message: `This client has ${holdings.parked.size} threads waiting on its answers (at most ${this.#limits.maxParkedThreads}); answer one of them before starting another.`,
        retryAfterSeconds: Math.max(1, Math.ceil((soonest - this.#now()) / 1_000)),
      };
    }
    holdings.running += 1;
    let ended = false;
    return {
      end: (outcome) => {
        if (ended) return;
        ended = true;
        holdings.running -= 1;
        if (outcome === "parked") holdings.parked.set(threadId, this.#now() + this.#limits.parkedTtlMs);
        else holdings.parked.delete(threadId);
        this.#forgetIfEmpty(principal, holdings);
      },
    };
  }

  /** Principals holding anything, for tests and metrics. */
  get size(): number {
    return this.#holdings.size;
  }

  #holdingsOf(principal: string): Holdings {
    let holdings = this.#holdings.get(principal);
    if (holdings === undefined) {
      holdings = { running: 0, parked: new Map() };
      this.#holdings.set(principal, holdings);
    }
    return holdings;
  }

  #sweep(): void {
    for (const [principal, holdings] of this.#holdings) {
      this.#expire(holdings);
      this.#forgetIfEmpty(principal, holdings);
    }
  }

  #expire(holdings: Holdings): void {
    const now = this.#now();
    for (const [threadId, until] of holdings.parked) if (until <= now) holdings.parked.delete(threadId);
  }

  #forgetIfEmpty(principal: string, holdings: Holdings): void {
    if (holdings.running === 0 && holdings.parked.size === 0) this.#holdings.delete(principal);
  }
}

export function isRefusal(admission: BudgetTicket | BudgetRefusal): admission is BudgetRefusal {
  return "code" in admission;
}
