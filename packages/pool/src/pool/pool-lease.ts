import type { PooledConversation } from "../process/pooled-process.js";

/**
 * One conversation handed out by the pool, and the slot it holds on its process. Hold it for as
 * long as the conversation lives (including while it is parked) and `release()` it when done.
 */
export interface PoolLease<TConversation> {
  /** The open conversation (a harness `Conversation` by default); the pool closes it when the lease ends, so do not close it yourself. */
  readonly conversation: TConversation;
  /** The pool's id of the process the conversation lives on. */
  readonly processId: number;
  /** The OS pid of that process; undefined only when a custom `startProcess` gives none. */
  readonly pid: number | undefined;
  /** The key of the partition the conversation belongs to, as in metrics, logs and `PoolError.partitionKey`. */
  readonly partitionKey: string;
  /**
   * Aborted when the lease ends: on `release()` (reason: an `AbortError`), when its process dies
   * (reason: `PoolError` `PROCESS_DIED`) or when the pool closes (`PoolError` `POOL_CLOSED`).
   * Turns in flight on the conversation fail on their own; this tells the holder why.
   */
  readonly signal: AbortSignal;
  /** Resolves once the conversation is closed and its slot is free again. */
  readonly closed: Promise<void>;
  /** Whether the holder marked the conversation parked. */
  readonly parked: boolean;
  /**
   * Marks the conversation as parked (waiting on a human or a long tool) or active again. Parked
   * conversations still hold their slot; placement uses the mark to pack new conversations onto
   * processes that are pinned anyway (`fill-first`) or away from busy ones (`spread`).
   */
  setParked(parked: boolean): void;
  /**
   * Offers the conversation back to the pool while the holder does not use it (`reclaim`), or
   * withdraws the offer (`undefined`). When an acquire finds no room under `maxProcesses`, the pool
   * calls the `reclaim` of the lease offered longest ago (a parked one only while parked
   * conversations exceed `maxParkedConversations`); it returns true once the holder has let the
   * conversation go (it then releases the lease), false to keep it after all.
   */
  setReclaimable(reclaim: (() => boolean) | undefined): void;
  /** Closes the conversation gracefully and frees the slot. Idempotent; resolves when done or when `signal` aborts. */
  release(options?: { signal?: AbortSignal }): Promise<void>;
}

/** What a lease tells its pool. Parking needs no notice: placement reads `parked` when it runs. */
export interface LeaseOwner {
  /**
   * The conversation is being closed: the slot stays taken until `settled` resolves. Returns a
   * promise that resolves once the slot is free again.
   */
  ending(lease: PooledLease<PooledConversation>, settled: Promise<void>): Promise<void>;
}

export interface PooledLeaseInit<TConversation> {
  conversation: TConversation;
  processId: number;
  pid: number | undefined;
  partitionKey: string;
  owner: LeaseOwner;
  logError: (message: string, error: unknown) => void;
}

export class PooledLease<TConversation extends PooledConversation> implements PoolLease<TConversation> {
  readonly conversation: TConversation;
  readonly processId: number;
  readonly pid: number | undefined;
  readonly partitionKey: string;
  readonly closed: Promise<void>;
  readonly #controller = new AbortController();
  readonly #owner: LeaseOwner;
  readonly #logError: (message: string, error: unknown) => void;
  #parked = false;
  #ended = false;
  #reclaim: { readonly reclaim: () => boolean; readonly since: number } | undefined;
  #resolveClosed: () => void = () => undefined;

  constructor(init: PooledLeaseInit<TConversation>) {
    this.conversation = init.conversation;
    this.processId = init.processId;
    this.pid = init.pid;
    this.partitionKey = init.partitionKey;
    this.#owner = init.owner;
    this.#logError = init.logError;
    this.closed = new Promise((resolve) => {
      this.#resolveClosed = resolve;
    });
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get parked(): boolean {
    return this.#parked;
  }

  get ended(): boolean {
    return this.#ended;
  }

  setParked(parked: boolean): void {
    if (this.#ended) return;
    this.#parked = parked;
  }

  /** The holder's standing offer to give the conversation back, and since when (see `setReclaimable`). */
  get reclaimOffer(): { readonly reclaim: () => boolean; readonly since: number } | undefined {
    return this.#ended ? undefined : this.#reclaim;
  }

  setReclaimable(reclaim: (() => boolean) | undefined): void {
    if (this.#ended) return;
    this.#reclaim = reclaim === undefined ? undefined : { reclaim, since: Date.now() };
  }

  release(options: { signal?: AbortSignal } = {}): Promise<void> {
    const releasedReason = new DOMException("The lease was released", "AbortError");
    this.end(releasedReason);
    const signal = options.signal;
    if (signal === undefined) return this.closed;
    if (signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        signal.removeEventListener("abort", done);
        resolve();
      };
      signal.addEventListener("abort", done, { once: true });
      void this.closed.then(done);
    });
  }

  /** Ends the lease with `reason` (released, process died, pool closed). Only the first call counts. */
  end(reason: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#controller.abort(reason);
    const freed = this.#owner.ending(this as PooledLease<PooledConversation>, this.#closeConversation());
    void freed.then(() => this.#resolveClosed());
  }

  async #closeConversation(): Promise<void> {
    try {
      await this.conversation.close();
    } catch (error) {
      // The conversation may already be gone with its process; closing it is best effort.
      this.#logError("closing a pooled conversation failed", error);
    }
  }
}
