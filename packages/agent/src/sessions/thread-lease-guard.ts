import { AgentError } from "../errors/agent-error.js";
import type { LeaseToken, ThreadKey, ThreadLeases } from "../threads/store/thread-store.js";
import type { AntigravitySession } from "./antigravity-session.js";
import type { SessionLease, SessionManager } from "./session-manager.js";

export interface ThreadLeaseGuardOptions {
  /** The store's leases (Redis); none: every method lets everything through. */
  leases: ThreadLeases | undefined;
  sessions: SessionManager<AntigravitySession>;
  /** The agent's id (fixed on first use). */
  agentId(): string;
  warn(details: Record<string, unknown>, message: string): void;
}

/**
 * The agent's side of thread leases (a store that has them: Redis, replicas): the lease a new
 * session takes (waiting, bounded, for a holder that may be gone), the confirmation every run of a
 * live session asks for, and the watch that drops sessions whose leases were lost (a write refused
 * because another replica took the thread, or this replica's heartbeat lapsed). One replica at a
 * time drives a thread; a stale one stops before it serves again.
 */
export class ThreadLeaseGuard {
  readonly #options: ThreadLeaseGuardOptions;
  readonly #unwatch: (() => void) | undefined;

  constructor(options: ThreadLeaseGuardOptions) {
    this.#options = options;
    this.#unwatch = options.leases?.onLost((lost) => {
      if (lost === "all") {
        options.sessions.dropAll("lease-lost");
        return;
      }
      if (lost.key.agentId !== options.agentId()) return;
      const session = options.sessions.sessionOf(lost.key.threadId);
      if (session?.lease?.fence === lost.lease.fence) options.sessions.drop(lost.key.threadId, session, "lease-lost");
    });
  }

  /** Tells the watch now if this replica's heartbeat lapsed since its last beat (its sessions are then dropped). */
  checkLapse(): void {
    this.#options.leases?.checkLapse();
  }

  /**
   * The lease a new session of the thread holds it by (undefined without leases). Waits, bounded, for
   * a holder that may be gone (a killed replica) and then takes the thread over; a holder seen alive
   * keeps it: THREAD_ELSEWHERE (503, retried by a load balancer). Store failures: THREAD_STORE_UNAVAILABLE.
   */
  async take(threadId: string, signal: AbortSignal): Promise<LeaseToken | undefined> {
    const leases = this.#options.leases;
    if (leases === undefined) return undefined;
    let outcome;
    try {
      outcome = await leases.acquire(this.#key(threadId), { signal });
    } catch (error) {
      // The run's client gave up while the run waited for a gone holder: that is no store failure.
      if (signal.aborted) throw error;
      throw storeUnavailable(error);
    }
    if (!outcome.acquired) {
      throw new AgentError("THREAD_ELSEWHERE", "Another replica holds this thread's live session; the request should be routed there (retry: a load balancer sends it on).");
    }
    if (outcome.previousHolder !== undefined) {
      this.#options.warn({ threadId, previousReplica: outcome.previousHolder, replica: leases.replicaId }, "thread moved here from a replica that is gone; resuming it from the shared store");
    }
    return { fence: outcome.fence };
  }

  /** Gives the lease back (a session that could not be made). Never throws. */
  async giveBack(threadId: string, lease: LeaseToken | undefined): Promise<void> {
    if (lease !== undefined) await this.#options.leases?.release(this.#key(threadId), lease);
  }

  /**
   * The thread's session for a run, its lease confirmed when it was a live one (every run, not only
   * when the session was created): a session whose thread another replica took since (or whose
   * replica lapsed) is dropped, and `acquire` runs once more, to take the thread back once its
   * holder is gone or say it is elsewhere.
   */
  async confirmed(threadId: string, acquire: () => Promise<SessionLease<AntigravitySession>>): Promise<SessionLease<AntigravitySession>> {
    const acquired = await acquire();
    const token = acquired.session.lease;
    const leases = this.#options.leases;
    if (acquired.created || token === undefined || leases === undefined) return acquired;
    let confirmed: boolean;
    try {
      confirmed = await leases.confirm(this.#key(threadId), token);
    } catch (error) {
      acquired.release();
      throw storeUnavailable(error);
    }
    if (confirmed) return acquired;
    acquired.release();
    this.#options.sessions.drop(threadId, acquired.session, "lease-lost");
    return acquire();
  }

  close(): void {
    this.#unwatch?.();
  }

  #key(threadId: string): ThreadKey {
    return { agentId: this.#options.agentId(), threadId };
  }
}

function storeUnavailable(error: unknown): AgentError {
  return AgentError.isInstance(error) ? error : new AgentError("THREAD_STORE_UNAVAILABLE", "The thread store cannot be reached; try again shortly.", { cause: error });
}
