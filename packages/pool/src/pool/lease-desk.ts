// Turning a reserved slot into a lease: waiting for the process, opening the conversation, handing
// out the lease, and freeing the slot again when the lease ends or the open comes too late. It
// owns the conversations still closing after their lease ended (the pool's close waits for them);
// it is apart from the pool so the acquire's open path, with its races against the process dying,
// the pool closing and the caller giving up, reads on its own.
import { linkSignals } from "@ag-ui-antigravity/foundation";
import type { ChangeSignal } from "../internal/change-signal.js";
import { raceAbort } from "../internal/race-abort.js";
import type { PooledConversation, PooledProcess } from "../process/pooled-process.js";
import { acquireAbortedError, acquireError, poolClosedError } from "./acquire-errors.js";
import { PooledLease, type LeaseOwner, type PoolLease } from "./pool-lease.js";
import type { PoolMember } from "./pool-member.js";
import type { ResolvedPoolSettings } from "./pool-options.js";
import type { PoolTally } from "./pool-tally.js";
import type { ProcessFleet } from "./process-fleet.js";

/** What the lease desk needs from the pool. */
export interface LeaseDeskOptions<TConfig, TConversation extends PooledConversation> {
  readonly settings: ResolvedPoolSettings;
  readonly fleet: ProcessFleet<TConfig, TConversation>;
  readonly tally: PoolTally;
  /** Notified when a slot comes free, so acquires waiting for room look again. */
  readonly roomChanged: ChangeSignal;
  /** Aborted when the pool closes: opens in flight give up. */
  readonly poolSignal: AbortSignal;
  /** False once the pool is closing: a conversation opened then is closed, not handed out. */
  readonly isAccepting: () => boolean;
}

/** Opens conversations on reserved slots, hands out their leases, and frees the slots when they end. */
export class LeaseDesk<TConfig, TConversation extends PooledConversation> {
  readonly #settings: ResolvedPoolSettings;
  readonly #fleet: ProcessFleet<TConfig, TConversation>;
  readonly #tally: PoolTally;
  readonly #roomChanged: ChangeSignal;
  readonly #poolSignal: AbortSignal;
  readonly #isAccepting: () => boolean;
  /** Conversations being closed after their lease ended; `close()` waits for them. */
  readonly #closingConversations = new Set<Promise<void>>();

  constructor(options: LeaseDeskOptions<TConfig, TConversation>) {
    this.#settings = options.settings;
    this.#fleet = options.fleet;
    this.#tally = options.tally;
    this.#roomChanged = options.roomChanged;
    this.#poolSignal = options.poolSignal;
    this.#isAccepting = options.isAccepting;
  }

  /** Settles once every conversation closing now is closed. */
  closingSettled(): Promise<unknown> {
    return Promise.all(this.#closingConversations);
  }

  /**
   * Waits for the reserved process, opens the conversation and turns the reservation into a lease.
   * Returns undefined when the process died meanwhile, so the acquire places itself again.
   */
  async openOn(
    member: PoolMember<TConfig, TConversation>,
    options: { readonly config: TConfig; readonly signal?: AbortSignal | undefined },
  ): Promise<PoolLease<TConversation> | undefined> {
    const callerSignal = options.signal;
    let process: PooledProcess<TConfig, TConversation>;
    try {
      process = await raceAbort(member.started, [callerSignal, this.#poolSignal], (signal) =>
        signal === this.#poolSignal ? poolClosedError() : acquireAbortedError(signal),
      );
    } catch (error) {
      this.#unreserve(member);
      throw acquireError(error, { callerSignal, accepting: this.#isAccepting() });
    }
    if (!member.isReady()) {
      this.#unreserve(member);
      if (!this.#isAccepting()) throw poolClosedError();
      return undefined;
    }
    const open = linkSignals([callerSignal, this.#poolSignal]);
    let conversation: TConversation;
    try {
      conversation = await process.openConversation(options.config, { signal: open.signal });
    } catch (error) {
      // The open may have failed because the process just exited; learn of the death now.
      if (process.hasExited === true) this.#fleet.processGone(member);
      this.#unreserve(member);
      if (!member.isReady() && this.#isAccepting() && callerSignal?.aborted !== true) return undefined;
      throw acquireError(error, { callerSignal, accepting: this.#isAccepting(), partitionKey: member.partition.key });
    } finally {
      open.unlink();
    }
    member.reservations -= 1;
    if (!member.isReady() || !this.#isAccepting() || callerSignal?.aborted === true) {
      // Opened too late to hand out: the process died, the pool closed or the caller gave up.
      this.#closeUnwanted(member, conversation);
      if (!member.isReady() && this.#isAccepting() && callerSignal?.aborted !== true) return undefined;
      throw acquireError(undefined, { callerSignal, accepting: this.#isAccepting() });
    }
    const lease = new PooledLease<TConversation>({
      conversation,
      processId: member.id,
      pid: process.pid,
      partitionKey: member.partition.key,
      owner: this.#leaseOwner(member),
      logError: (message, error) => this.#settings.logger.warn({ processId: member.id, error }, message),
    });
    member.leases.add(lease);
    this.#settings.logger.debug({
      processId: member.id,
      partitionKey: member.partition.key,
      conversations: member.leases.size,
    }, "conversation placed");
    return lease;
  }

  #leaseOwner(member: PoolMember<TConfig, TConversation>): LeaseOwner {
    return {
      ending: (lease, settled) => {
        member.leases.delete(lease as PooledLease<TConversation>);
        member.closingConversations += 1;
        this.#tally.count("releases");
        const freed = settled.then(() => {
          member.closingConversations -= 1;
          this.#slotFreed(member);
        });
        this.#trackClosing(freed);
        return freed;
      },
    };
  }

  #closeUnwanted(member: PoolMember<TConfig, TConversation>, conversation: TConversation): void {
    member.closingConversations += 1;
    const closing = (async () => {
      try {
        await conversation.close();
      } catch (error) {
        this.#settings.logger.warn({ processId: member.id, error }, "closing an unwanted conversation failed");
      }
      member.closingConversations -= 1;
      this.#slotFreed(member);
    })();
    this.#trackClosing(closing);
  }

  #trackClosing(closing: Promise<void>): void {
    this.#closingConversations.add(closing);
    void closing.finally(() => this.#closingConversations.delete(closing));
  }

  #unreserve(member: PoolMember<TConfig, TConversation>): void {
    member.reservations -= 1;
    this.#slotFreed(member);
  }

  /** A slot came free: wake waiting acquires, and start the idle grace if the process is now empty. */
  #slotFreed(member: PoolMember<TConfig, TConversation>): void {
    this.#roomChanged.notify();
    if (member.state === "ready" && member.occupied === 0) this.#fleet.becameIdle(member);
  }
}
