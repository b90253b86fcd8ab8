import type { Tool } from "@ag-ui/client";
import type { AntigravitySession } from "./antigravity-session.js";
import type { SessionCloseReason } from "./session-manager.js";

/** What the stock needs from a spare. */
export interface SpareSession {
  /** Set when its harness died while it waited. */
  readonly harnessLost: boolean;
  close(reason: SessionCloseReason): Promise<void>;
}

export interface SpareSessionsOptions<Spare extends SpareSession = AntigravitySession> {
  /** Spare sessions kept ready per tool contract. */
  spares: number;
  /** Spares of a tool contract no new thread asked for in this long are closed. */
  idleTimeoutMs: number;
  /** How long a taken spare's replacement waits after `refill` (see `REFILL_DELAY_MS`). */
  refillDelayMs: number;
  /**
   * Opens one spare: a session with its conversation open on `tools`, not yet any thread's; or
   * undefined when the harness has no free room for one now (a spare never takes a thread's).
   */
  open(signature: string, tools: readonly Tool[], signal: AbortSignal): Promise<Spare | undefined>;
  warn(details: Record<string, unknown>, message: string): void;
}

/** Tool contracts whose spares are kept at once; the least recently asked for is dropped past it. */
export const MAX_SPARE_CONTRACTS = 8;

interface Stock<Spare> {
  readonly tools: readonly Tool[];
  readonly ready: Spare[];
  opening: number;
  idleTimer: NodeJS.Timeout;
}

/** Spares opened at once, over every contract: refilling never floods the harness with opens. */
export const MAX_SPARES_OPENING = 1;

/**
 * The wait before a taken spare is replaced. `refill` comes as the taker's first run ends, when its
 * client is still reading the stream's last events; opening a conversation right then (a session,
 * a WebSocket, the harness's own work to set it up) took the CPU that client needed on a small
 * machine: on 2 cores, with the emulator, a new thread's first turn measured 1.14-1.42x the same
 * thread's second turn with the replacement opened at once, 1.07-1.20x with it 25 ms later (three
 * runs each of 20 threads).
 */
export const REFILL_DELAY_MS = 25;

/** Held by a run from its start until its session is ready: while any is held, no spare is opened. */
export interface SpareHold {
  /** Idempotent. */
  release(): void;
}

/**
 * Sessions whose harness conversation is already open, for new threads to take instead of waiting
 * for a conversation (and maybe a harness process) to start. A conversation is opened with its
 * client tools, so spares are kept per tool contract (the signature of server and client tools), for
 * the contracts new threads asked for: the first new thread of a contract starts the stock, each
 * taken spare is replaced in the background. Bounded (spares per contract, contracts at once), and a
 * contract no new thread asked for within `idleTimeoutMs` gives its spares back.
 *
 * Refilling yields to live work: a spare is opened only while no run waits for its session (each
 * run holds a `hold()` until then), and one at a time. A crowd of new threads therefore gets the
 * harness's slots and processes first, and the stocks are topped up once it has been served,
 * instead of spare opens queueing ahead of the very runs they are meant to speed up.
 */
export class SpareSessions<Spare extends SpareSession = AntigravitySession> {
  readonly #options: SpareSessionsOptions<Spare>;
  readonly #stocks = new Map<string, Stock<Spare>>();
  readonly #lifetime = new AbortController();
  /** Runs waiting for their session. */
  #holds = 0;
  /** Spares being opened, over every contract. */
  #opening = 0;
  /** Contracts whose stock is below `spares`, in the order they asked; topped up when nothing is held. */
  readonly #wanted = new Set<string>();
  /** The next look at the wanted contracts, on a later turn of the event loop. */
  #pumpTimer: NodeJS.Immediate | undefined;
  /** Contracts whose taken spares are replaced when `#refillTimer` fires. */
  readonly #refillsDue = new Set<string>();
  #refillTimer: NodeJS.Timeout | undefined;

  constructor(options: SpareSessionsOptions<Spare>) {
    this.#options = options;
  }

  /** Spares ready now, over every contract. */
  get ready(): number {
    let count = 0;
    for (const stock of this.#stocks.values()) count += stock.ready.length;
    return count;
  }

  /** Spares being opened now, over every contract. */
  get opening(): number {
    return this.#opening;
  }

  /** Holds refills back until the returned hold is released (a run whose session is not ready yet). */
  hold(): SpareHold {
    this.#holds += 1;
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        this.#holds -= 1;
        if (this.#holds === 0) this.#pumpSoon();
      },
    };
  }

  /**
   * A ready spare for a new thread with this tool contract, or undefined. Without one, the stock of
   * the contract is (re)filled once no run waits for its session; a taken spare is replaced when the
   * taker calls `refill` (after its first turn), so opening the replacement does not compete with
   * that turn for the harness process and this one.
   */
  take(signature: string, tools: readonly Tool[]): Spare | undefined {
    if (this.#lifetime.signal.aborted) return undefined;
    const stock = this.#stockOf(signature, tools);
    let spare = stock.ready.shift();
    // A spare whose harness died while it waited is of no use.
    while (spare?.harnessLost === true) {
      void spare.close("evicted");
      spare = stock.ready.shift();
    }
    if (spare === undefined) this.#want(signature);
    return spare;
  }

  /**
   * Closes a ready spare no thread took (the pool needs its slot for a thread); false when it was
   * taken or is gone already. Its contract is refilled later, when a new thread asks for one.
   */
  discard(spare: Spare): boolean {
    for (const stock of this.#stocks.values()) {
      const index = stock.ready.indexOf(spare);
      if (index === -1) continue;
      stock.ready.splice(index, 1);
      void spare.close("reclaimed");
      return true;
    }
    return false;
  }

  /** Tops up the stock of a contract a spare was taken from, `refillDelayMs` from now. */
  refill(signature: string): void {
    if (!this.#stocks.has(signature) || this.#lifetime.signal.aborted) return;
    this.#refillsDue.add(signature);
    this.#refillTimer ??= setTimeout(this.#refillDue, this.#options.refillDelayMs);
    this.#refillTimer.unref();
  }

  readonly #refillDue = (): void => {
    this.#refillTimer = undefined;
    for (const signature of this.#refillsDue) if (this.#stocks.has(signature)) this.#want(signature);
    this.#refillsDue.clear();
  };

  /** Closes every spare and stops refilling. Idempotent. */
  async close(): Promise<void> {
    this.#lifetime.abort();
    this.#wanted.clear();
    if (this.#pumpTimer !== undefined) clearImmediate(this.#pumpTimer);
    this.#pumpTimer = undefined;
    clearTimeout(this.#refillTimer);
    this.#refillTimer = undefined;
    this.#refillsDue.clear();
    const spares: Spare[] = [];
    for (const stock of this.#stocks.values()) {
      clearTimeout(stock.idleTimer);
      spares.push(...stock.ready.splice(0));
    }
    this.#stocks.clear();
    await Promise.all(spares.map((spare) => spare.close("manager-closed")));
  }

  #stockOf(signature: string, tools: readonly Tool[]): Stock<Spare> {
    let stock = this.#stocks.get(signature);
    if (stock !== undefined) {
      // Most recently asked for last, so the first entry is the one to drop.
      this.#stocks.delete(signature);
      this.#stocks.set(signature, stock);
      stock.idleTimer.refresh();
      return stock;
    }
    stock = { tools, ready: [], opening: 0, idleTimer: setTimeout(() => this.#drop(signature), this.#options.idleTimeoutMs) };
    stock.idleTimer.unref();
    this.#stocks.set(signature, stock);
    if (this.#stocks.size > MAX_SPARE_CONTRACTS) {
      const [oldest] = this.#stocks.keys();
      if (oldest !== undefined) this.#drop(oldest);
    }
    return stock;
  }

  #drop(signature: string): void {
    const stock = this.#stocks.get(signature);
    if (stock === undefined) return;
    this.#stocks.delete(signature);
    this.#wanted.delete(signature);
    clearTimeout(stock.idleTimer);
    for (const spare of stock.ready.splice(0)) void spare.close("idle-timeout");
  }

  #want(signature: string): void {
    this.#wanted.add(signature);
    this.#pumpSoon();
  }

  /**
   * On a later turn of the event loop: opening a spare starts with synchronous work (a session, its
   * bridge, the conversation's open frames) that would otherwise hold up the run whose end or whose
   * start let it go, before that run's events are out.
   */
  #pumpSoon(): void {
    if (this.#pumpTimer !== undefined || this.#lifetime.signal.aborted) return;
    this.#pumpTimer = setImmediate(() => {
      this.#pumpTimer = undefined;
      this.#pump();
    });
  }

  /** Opens the next wanted spare, if nothing holds refills back and the bound on opens allows. */
  #pump(): void {
    while (this.#holds === 0 && this.#opening < MAX_SPARES_OPENING && !this.#lifetime.signal.aborted) {
      const next = this.#nextWanted();
      if (next === undefined) return;
      this.#open(next.signature, next.stock);
    }
  }

  /** The oldest wanted contract still short of spares; contracts already full are no longer wanted. */
  #nextWanted(): { signature: string; stock: Stock<Spare> } | undefined {
    for (const signature of this.#wanted) {
      const stock = this.#stocks.get(signature);
      if (stock !== undefined && stock.ready.length + stock.opening < this.#options.spares) return { signature, stock };
      this.#wanted.delete(signature);
    }
    return undefined;
  }

  #open(signature: string, stock: Stock<Spare>): void {
    stock.opening += 1;
    this.#opening += 1;
    this.#options
      .open(signature, stock.tools, this.#lifetime.signal)
      .then(
        (spare) => {
          // No room now: the next new thread of the contract asks again.
          if (spare === undefined) this.#wanted.delete(signature);
          // Dropped or closed while it opened: it has no stock to join.
          else if (this.#stocks.get(signature) !== stock || this.#lifetime.signal.aborted) void spare.close("evicted");
          else stock.ready.push(spare);
        },
        (error: unknown) => {
          // A failing harness must not be retried in a loop: the next new thread asks again.
          this.#wanted.delete(signature);
          if (!this.#lifetime.signal.aborted) this.#options.warn({ error }, "a spare session could not be opened");
        },
      )
      .finally(() => {
        stock.opening -= 1;
        this.#opening -= 1;
        // The failed contract is no longer wanted, so this never retries it in a loop.
        this.#pumpSoon();
      });
  }
}
