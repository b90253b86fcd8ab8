import type { Tool } from "@ag-ui/client";
import type { AntigravitySession } from "./antigravity-session.js";

export interface SpareSessionsOptions {
  /** Spare sessions kept ready per tool contract. */
  spares: number;
  /** Spares of a tool contract no new thread asked for in this long are closed. */
  idleTimeoutMs: number;
  /** Opens one spare: a session with its conversation open on `tools`, not yet any thread's. */
  open(signature: string, tools: readonly Tool[], signal: AbortSignal): Promise<AntigravitySession>;
  warn(details: Record<string, unknown>, message: string): void;
}

/** Tool contracts whose spares are kept at once; the least recently asked for is dropped past it. */
export const MAX_SPARE_CONTRACTS = 8;

interface Stock {
  readonly tools: readonly Tool[];
  readonly ready: AntigravitySession[];
  opening: number;
  idleTimer: NodeJS.Timeout;
}

/**
 * Sessions whose harness conversation is already open, for new threads to take instead of waiting
 * for a conversation (and maybe a harness process) to start. A conversation is opened with its
 * client tools, so spares are kept per tool contract (the signature of server and client tools), for
 * the contracts new threads asked for: the first new thread of a contract starts the stock, each
 * taken spare is replaced in the background. Bounded (spares per contract, contracts at once), and a
 * contract no new thread asked for within `idleTimeoutMs` gives its spares back.
 */
export class SpareSessions {
  readonly #options: SpareSessionsOptions;
  readonly #stocks = new Map<string, Stock>();
  readonly #lifetime = new AbortController();

  constructor(options: SpareSessionsOptions) {
    this.#options = options;
  }

  /** Spares ready now, over every contract. */
  get ready(): number {
    let count = 0;
    for (const stock of this.#stocks.values()) count += stock.ready.length;
    return count;
  }

  /**
   * A ready spare for a new thread with this tool contract, or undefined. Without one, the stock of
   * the contract is (re)filled in the background at once; a taken spare is replaced when the taker
   * calls `refill` (after its first turn), so opening the replacement does not compete with that
   * turn for the harness process and this one.
   */
  take(signature: string, tools: readonly Tool[]): AntigravitySession | undefined {
    if (this.#lifetime.signal.aborted) return undefined;
    const stock = this.#stockOf(signature, tools);
    let spare = stock.ready.shift();
    // A spare whose harness died while it waited is of no use.
    while (spare?.harnessLost === true) {
      void spare.close("evicted");
      spare = stock.ready.shift();
    }
    if (spare === undefined) this.#refill(signature, stock);
    return spare;
  }

  /** Tops up the stock of a contract a spare was taken from. */
  refill(signature: string): void {
    const stock = this.#stocks.get(signature);
    if (stock !== undefined && !this.#lifetime.signal.aborted) this.#refill(signature, stock);
  }

  /** Closes every spare and stops refilling. Idempotent. */
  async close(): Promise<void> {
    this.#lifetime.abort();
    const spares: AntigravitySession[] = [];
    for (const stock of this.#stocks.values()) {
      clearTimeout(stock.idleTimer);
      spares.push(...stock.ready.splice(0));
    }
    this.#stocks.clear();
    await Promise.all(spares.map((spare) => spare.close("manager-closed")));
  }

  #stockOf(signature: string, tools: readonly Tool[]): Stock {
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
    clearTimeout(stock.idleTimer);
    for (const spare of stock.ready.splice(0)) void spare.close("idle-timeout");
  }

  #refill(signature: string, stock: Stock): void {
    while (stock.ready.length + stock.opening < this.#options.spares && !this.#lifetime.signal.aborted) {
      stock.opening += 1;
      this.#options
        .open(signature, stock.tools, this.#lifetime.signal)
        .then(
          (spare) => {
            // Dropped or closed while it opened: it has no stock to join.
            if (this.#stocks.get(signature) !== stock || this.#lifetime.signal.aborted) void spare.close("evicted");
            else stock.ready.push(spare);
          },
          (error: unknown) => {
            // A failing harness must not be retried in a loop: the next new thread asks again.
            if (!this.#lifetime.signal.aborted) this.#options.warn({ error }, "a spare session could not be opened");
          },
        )
        .finally(() => {
          stock.opening -= 1;
        });
    }
  }
}
