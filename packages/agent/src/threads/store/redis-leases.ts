import { sleep } from "@ag-ui-antigravity/foundation";
import { ACQUIRE_SCRIPT, CONFIRM_SCRIPT, HOLDER_SCRIPT, RELEASE_SCRIPT } from "./redis-scripts.js";
import type { LeaseOutcome, LeaseToken, ThreadKey, ThreadLeases, ThreadStoreLogger } from "./thread-store.js";

/** Beyond a gone holder's heartbeat time to live, how much longer a run waits to take its thread over. */
const TAKEOVER_MARGIN_MS = 500;

export interface RedisLeasesOptions {
  replicaId: string;
  /** A replica silent this long is gone and its leases void; it beats every third of it. */
  replicaTtlMs: number;
  /** The thread's time to live (the record hash's), refreshed by an acquisition. */
  threadTtlMs: number;
  send(args: string[]): Promise<unknown>;
  recordKey(key: ThreadKey): string;
  replicaKey(replicaId: string): string;
  isClosing(): boolean;
  now(): number;
  logger: ThreadStoreLogger;
}

type LostListener = Parameters<ThreadLeases["onLost"]>[0];

/**
 * The Redis store's leases (`ThreadLeases`): this replica's heartbeat, fenced acquisition (with the
 * wait for a holder that may be gone), the per-run confirmation, and the watch on this replica's own
 * heartbeat. A replica that could not beat for its whole time to live (a pause, a partition, Redis
 * away) may have lost every lease to another: its listeners hear `"all"` before it serves again.
 */
export class RedisLeases implements ThreadLeases {
  readonly replicaId: string;
  readonly #options: RedisLeasesOptions;
  readonly #listeners = new Set<LostListener>();
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  /** When the last beat Redis took was sent; undefined before the first. */
  #lastBeatAt: number | undefined;
  /** The lapse since the last beat was told already. */
  #lapseTold = false;

  constructor(options: RedisLeasesOptions) {
    this.replicaId = options.replicaId;
    this.#options = options;
  }

  /** Sends this replica's heartbeat now and keeps sending it until `stop()`. Idempotent. */
  async startHeartbeat(): Promise<void> {
    if (this.#heartbeat !== undefined || this.#options.isClosing()) return;
    this.#heartbeat = setInterval(() => {
      // A beat late past the time to live (the process was paused) first tells that leases may be gone.
      this.checkLapse();
      this.#beat().catch((error: unknown) => this.#options.logger.warn?.({ error }, "the replica heartbeat could not be sent to Redis"));
    }, Math.max(100, Math.floor(this.#options.replicaTtlMs / 3)));
    this.#heartbeat.unref();
    await this.#beat();
  }

  /** Stops the heartbeat and removes it, so this replica's leases are void at once. */
  async stop(): Promise<void> {
    if (this.#heartbeat === undefined) return;
    clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
    await this.#options.send(["DEL", this.#options.replicaKey(this.replicaId)]).catch(() => undefined);
  }

  checkLapse(): boolean {
    const last = this.#lastBeatAt;
    if (last === undefined || this.#options.now() - last <= this.#options.replicaTtlMs) return false;
    if (!this.#lapseTold) {
      this.#lapseTold = true;
      this.#options.logger.warn?.({ replica: this.replicaId, sinceLastBeatMs: this.#options.now() - last }, "this replica's heartbeat lapsed: its live sessions are dropped, since another replica may hold their threads now");
      this.#tell("all");
    }
    return true;
  }

  onLost(listener: LostListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells the listeners a lease was found lost (a fenced write refused). */
  lost(key: ThreadKey, lease: LeaseToken): void {
    this.#tell({ key, lease });
  }

  async acquire(key: ThreadKey, options: { signal?: AbortSignal } = {}): Promise<LeaseOutcome> {
    await this.startHeartbeat();
    this.checkLapse();
    const deadline = this.#options.now() + this.#options.replicaTtlMs + TAKEOVER_MARGIN_MS;
    const pollMs = Math.min(250, Math.max(50, Math.floor(this.#options.replicaTtlMs / 10)));
    let seen: { holder: string; beat: string } | undefined;
    let beatsSent = 0;
    for (;;) {
      const reply = await this.#options.send(["EVAL", ACQUIRE_SCRIPT, "1", this.#options.recordKey(key), this.replicaId, String(this.#options.threadTtlMs), this.#options.replicaKey("")]);
      const [state, first, second] = Array.isArray(reply) ? (reply as unknown[]) : [];
      if (state === 1) {
        const fence = Number(first);
        return typeof second === "string" && second.length > 0 ? { acquired: true, fence, previousHolder: second } : { acquired: true, fence };
      }
      if (state === -1) {
        // This replica's own heartbeat is gone (a pause): beat again before taking anything.
        if (beatsSent >= 2) throw new Error("this replica's heartbeat cannot be kept in Redis");
        beatsSent += 1;
        await this.#beat();
        continue;
      }
      const holder = String(first);
      const beat = String(second);
      // A holder that beat since we first looked is alive: the thread stays where it is.
      if (seen !== undefined && seen.holder === holder && seen.beat !== beat) return { acquired: false, holder };
      if (seen?.holder !== holder) seen = { holder, beat };
      if (this.#options.now() >= deadline) return { acquired: false, holder };
      await sleep(pollMs, options.signal);
    }
  }

  async confirm(key: ThreadKey, lease: LeaseToken): Promise<boolean> {
    if (this.checkLapse()) return false;
    const reply = await this.#options.send(["EVAL", CONFIRM_SCRIPT, "1", this.#options.recordKey(key), this.replicaId, String(lease.fence), this.#options.replicaKey(""), String(this.#options.threadTtlMs)]);
    return reply === 1;
  }

  async release(key: ThreadKey, lease: LeaseToken): Promise<void> {
    try {
      await this.#options.send(["EVAL", RELEASE_SCRIPT, "1", this.#options.recordKey(key), this.replicaId, String(lease.fence)]);
    } catch (error) {
      this.#options.logger.warn?.({ error }, "a thread lease could not be released in Redis; it lapses with this replica's heartbeat");
    }
  }

  async holder(key: ThreadKey): Promise<string | undefined> {
    const holder = await this.#options.send(["EVAL", HOLDER_SCRIPT, "1", this.#options.recordKey(key), this.#options.replicaKey("")]);
    return typeof holder === "string" ? holder : undefined;
  }

  async #beat(): Promise<void> {
    const sentAt = this.#options.now();
    await this.#options.send(["SET", this.#options.replicaKey(this.replicaId), String(sentAt), "PX", String(this.#options.replicaTtlMs)]);
    // Counted from when it was sent: the key lives its time to live from about then.
    if (this.#lastBeatAt === undefined || sentAt > this.#lastBeatAt) this.#lastBeatAt = sentAt;
    if (this.#options.now() - this.#lastBeatAt <= this.#options.replicaTtlMs) this.#lapseTold = false;
  }

  #tell(lost: Parameters<LostListener>[0]): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(lost);
      } catch (error) {
        this.#options.logger.warn?.({ error }, "a lost-lease listener failed");
      }
    }
  }
}
