import type { ThreadHolding } from "./thread-holdings.js";

/** How much of the server one client (a principal, or without auth an address) may hold at once. */
export interface ClientLimits {
  /** Runs in flight at once: streaming, continuing after their client left, or started by the server on its threads. */
  readonly maxConcurrentRuns: number;
  /** Threads whose turn waits on the client's answer. */
  readonly maxParkedThreads: number;
  /** `connect` streams held open with `stayOpen`. */
  readonly maxOpenStreams: number;
  /** For an agent that cannot say what it holds: how long a park counts unless a later run of its thread ends otherwise. */
  readonly parkedTtlMs: number;
}

/** A thread of a client's run: its key in the account, and how to ask its agent what it holds of it. */
export interface AccountThread {
  /** Unique across the binding's agents (the route name and the thread id). */
  readonly key: string;
  /** Undefined when the agent cannot say (it does not implement `ThreadHoldings`). */
  readonly holding: (() => ThreadHolding) | undefined;
}

export interface AccountRefusal {
  readonly code: "RATE_LIMITED";
  readonly message: string;
  readonly retryAfterSeconds: number;
}

/**
 * How the run ended for the binding: `parked` (its RUN_FINISHED carried an interrupt outcome),
 * `ended`, or `refused` (answered with an HTTP error instead of a stream: nothing changed).
 */
export type RunEnding = "parked" | "ended" | "refused";

/** A run admitted by the account; `end` says how its request ended, once. */
export interface RunTicket {
  end(ending: RunEnding): void;
}

/** A `stayOpen` stream admitted by the account; `end` once it closed. */
export interface StreamTicket {
  end(): void;
}

interface HeldThread {
  readonly holding: (() => ThreadHolding) | undefined;
  /** When the park was first seen: a Retry-After's estimate, and the expiry of an agent that cannot say. */
  parkedSince: number | undefined;
}

interface Account {
  /** Runs whose request is open, per thread key (two at once on a thread is one refused with 409). */
  readonly requests: Map<string, number>;
  /** Threads whose request ended, kept while the agent still holds something of them. */
  readonly held: Map<string, HeldThread>;
  openStreams: number;
}

/** Accounts past this many are swept (accounts of clients that never came back), at most once a sweep interval. */
const SWEEP_ABOVE = 10_000;
const SWEEP_INTERVAL_MS = 10_000;
/** A refused `stayOpen` stream: streams end when their client closes them, not on a schedule. */
const STREAM_RETRY_AFTER_SECONDS = 5;

const holdings: ReadonlySet<string> = new Set<ThreadHolding>(["running", "parked", "idle", "none"]);

/**
 * One account per client of everything it holds on the server: runs in flight (until the agent says
 * they ended, also after their client left), threads parked on its answer (until the agent lets them
 * go), `stayOpen` streams, and turns the server starts on its threads (a run like any other). What
 * the agent holds is asked from the agent (`ThreadHoldings`) when the client's next request is
 * admitted, so nothing is released because a request about it was refused, and nothing is counted
 * after the agent let it go. Past a limit the request is refused (429 `RATE_LIMITED` with a
 * Retry-After); another client's account is never touched. The binding owns the one instance.
 */
export class ClientAccounts {
  readonly #limits: ClientLimits;
  readonly #now: () => number;
  readonly #accounts = new Map<string, Account>();
  #lastSweep = 0;

  constructor(limits: ClientLimits, now: () => number = Date.now) {
    this.#limits = limits;
    this.#now = now;
  }

  /** Admits a run of `client` on `thread`, or says why not. A run on a thread the client has parked (its answer) is admitted past the parked limit. */
  admitRun(client: string, thread: AccountThread): RunTicket | AccountRefusal {
    this.#sweepIfCrowded();
    const account = this.#accountOf(client);
    const { running, parked } = this.#refresh(account);
    if (running >= this.#limits.maxConcurrentRuns) {
      this.#forgetIfEmpty(client, account);
      return refusal(`Too many runs at once from this client (at most ${this.#limits.maxConcurrentRuns}, counting runs that go on after their client left); retry when one has finished.`, 1);
    }
    // Every run whose request is open may park too: counted, so concurrent runs cannot overshoot the cap.
    let mayPark = 0;
    for (const open of account.requests.values()) mayPark += open;
    const answersItsPark = account.held.get(thread.key)?.parkedSince !== undefined;
    if (!answersItsPark && parked.length + mayPark >= this.#limits.maxParkedThreads) {
      this.#forgetIfEmpty(client, account);
      const soonest = parked.length === 0 ? Number.NaN : Math.min(...parked.map((since) => since + this.#limits.parkedTtlMs));
      return refusal(
        `This client has ${parked.length} threads waiting on its answers and ${mayPark} runs in flight that may park (at most ${this.#limits.maxParkedThreads}); answer one of them before starting another.`,
        Number.isNaN(soonest) ? 1 : Math.max(1, Math.ceil((soonest - this.#now()) / 1_000)),
      );
    }
    account.requests.set(thread.key, (account.requests.get(thread.key) ?? 0) + 1);
    let ended = false;
    return {
      end: (ending) => {
        if (ended) return;
        ended = true;
        const open = (account.requests.get(thread.key) ?? 1) - 1;
        if (open > 0) account.requests.set(thread.key, open);
        else account.requests.delete(thread.key);
        this.#afterRun(account, thread, ending);
        this.#forgetIfEmpty(client, account);
      },
    };
  }

  /** Admits a `stayOpen` stream of `client`, or says why not. */
  admitStream(client: string): StreamTicket | AccountRefusal {
    this.#sweepIfCrowded();
    const account = this.#accountOf(client);
    if (account.openStreams >= this.#limits.maxOpenStreams) {
      this.#forgetIfEmpty(client, account);
      return refusal(`This client holds ${account.openStreams} open connect streams (at most ${this.#limits.maxOpenStreams}); close one before opening another.`, STREAM_RETRY_AFTER_SECONDS);
    }
    account.openStreams += 1;
    let ended = false;
    return {
      end: () => {
        if (ended) return;
        ended = true;
        account.openStreams -= 1;
        this.#forgetIfEmpty(client, account);
      },
    };
  }

  /** Clients with an account (something held, or remembered until their next request), for tests and metrics. */
  get size(): number {
    return this.#accounts.size;
  }

  /**
   * After a run's request ended: an agent that can say what it holds is asked at the client's next
   * request; for one that cannot, the run's events decide, and a refused request changes nothing.
   */
  #afterRun(account: Account, thread: AccountThread, ending: RunEnding): void {
    const known = account.held.get(thread.key);
    if (thread.holding !== undefined) {
      // A refused request (another's thread, a busy one) adds nothing: the client may hold nothing there.
      if (known === undefined && ending !== "refused") account.held.set(thread.key, { holding: thread.holding, parkedSince: ending === "parked" ? this.#now() : undefined });
      return;
    }
    if (ending === "parked") account.held.set(thread.key, { holding: undefined, parkedSince: known?.parkedSince ?? this.#now() });
    else if (ending === "ended") account.held.delete(thread.key);
  }

  /** Asks what is still held: runs in flight (open requests and held threads running), and when each park began. */
  #refresh(account: Account): { running: number; parked: number[] } {
    let running = 0;
    for (const open of account.requests.values()) running += open;
    const parked: number[] = [];
    const now = this.#now();
    for (const [key, thread] of account.held) {
      // A thread with a request open is counted by that request.
      if (account.requests.has(key)) continue;
      const holding = this.#holdingOf(thread, now);
      if (holding === "none") {
        account.held.delete(key);
        continue;
      }
      if (holding === "parked") {
        thread.parkedSince ??= now;
        parked.push(thread.parkedSince);
        continue;
      }
      thread.parkedSince = undefined;
      if (holding === "running") running += 1;
    }
    return { running, parked };
  }

  #holdingOf(thread: HeldThread, now: number): ThreadHolding {
    if (thread.holding === undefined) {
      return thread.parkedSince !== undefined && thread.parkedSince + this.#limits.parkedTtlMs > now ? "parked" : "none";
    }
    const holding = thread.holding();
    return holdings.has(holding) ? holding : "none";
  }

  #accountOf(client: string): Account {
    let account = this.#accounts.get(client);
    if (account === undefined) {
      account = { requests: new Map(), held: new Map(), openStreams: 0 };
      this.#accounts.set(client, account);
    }
    return account;
  }

  #sweepIfCrowded(): void {
    const now = this.#now();
    if (this.#accounts.size <= SWEEP_ABOVE || now - this.#lastSweep < SWEEP_INTERVAL_MS) return;
    this.#lastSweep = now;
    for (const [client, account] of this.#accounts) {
      this.#refresh(account);
      this.#forgetIfEmpty(client, account);
    }
  }

  #forgetIfEmpty(client: string, account: Account): void {
    if (account.requests.size === 0 && account.held.size === 0 && account.openStreams === 0) this.#accounts.delete(client);
  }
}

export function isAccountRefusal(admission: RunTicket | StreamTicket | AccountRefusal): admission is AccountRefusal {
  return "code" in admission;
}

function refusal(message: string, retryAfterSeconds: number): AccountRefusal {
  return { code: "RATE_LIMITED", message, retryAfterSeconds };
}
