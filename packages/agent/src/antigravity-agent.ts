import { brandClass, hasBrand, type ListedThread, type ThreadClaim, type ThreadHolding, type ThreadHoldings, type ThreadRecords, type TranscriptMessage } from "@ag-ui-antigravity/foundation";
import { AbstractAgent, type AgentCapabilities, type BaseEvent, type RunAgentInput } from "@ag-ui/client";
import type { PoolMetrics } from "@ag-ui-antigravity/pool";
import { Observable } from "rxjs";
import { AgentCore, type AgentStats } from "./agent-core.js";
import type { AntigravityAgentOptions } from "./agent-options.js";
import type { AgentReadiness } from "./readiness.js";

/**
 * An AG-UI agent backed by Google Antigravity. Every thread gets a live harness conversation
 * (pooled with others on shared harness processes); a turn can wait on a human across several runs.
 * Clones (one per HTTP request) share the sessions, the pool and the thread map.
 *
 * @example
 * const agent = new AntigravityAgent({ harness: "emulator", model: "emulator:demo" });
 * const app = createAntigravityApp({ chat: agent });
 */
export class AntigravityAgent extends AbstractAgent implements ThreadHoldings, ThreadRecords {
  static {
    brandClass(this, "AntigravityAgent");
  }

  /** True for an AntigravityAgent from any copy of this package (its ESM or CJS build, a duplicated install), where `instanceof` is not. */
  static isInstance(value: unknown): value is AntigravityAgent {
    return hasBrand(value, "AntigravityAgent");
  }

  private readonly core: AgentCore;

  constructor(options: AntigravityAgentOptions = {}) {
    super({
      ...(options.agentId === undefined ? {} : { agentId: options.agentId }),
      description: options.description ?? "A Google Antigravity agent",
    });
    this.core = new AgentCore(options);
  }

  /**
   * Streams one run. Unsubscribing (a client disconnect) halts the turn, or with
   * `reconnect.onDisconnect: "continue"` leaves it running for a later `connect`; a turn parked on a
   * human stays parked either way.
   */
  run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable<BaseEvent>((subscriber) => {
      const controller = new AbortController();
      const detachable = this.core.continuesDetachedRuns;
      // A subscriber that is gone gets nothing more; without `continue` the abort below ends the run.
      const emit = (event: BaseEvent): void => {
        if (!subscriber.closed) subscriber.next(event);
      };
      // Once the run is done there is nothing left to halt: completing would otherwise abort the
      // signal (and build its DOMException, stack and all) on every run.
      let ended = false;
      this.core.run(input, controller.signal, emit).then(
        () => {
          ended = true;
          subscriber.complete();
        },
        (error: unknown) => {
          ended = true;
          subscriber.error(error);
        },
      );
      return () => {
        if (!detachable && !ended) controller.abort();
      };
    });
  }

  /**
   * AG-UI's reconnect (`connectAgent()` calls it): the run in flight on `input.threadId` from its
   * first event, then live; or, on an idle thread, a MESSAGES_SNAPSHOT and a STATE_SNAPSHOT (with
   * the pending interrupt outcome when it waits on a human); nothing for a thread it does not know.
   * With `forwardedProps.stayOpen: true` the stream then stays open for server-initiated turns.
   */
  override connect(input: RunAgentInput): Observable<BaseEvent> {
    return this.core.connect(input);
  }

  /**
   * Starts a turn the user did not ask for on a thread (a reminder, a background job's result):
   * `text` reaches the model as an automated message, and the reply reaches clients that `connect`
   * with `stayOpen`, or the next `connect`'s snapshot. Queued while the thread is busy or waits on
   * a human. Resolves with the run id when the turn has ended; rejects with `AgentError`
   * (`UNKNOWN_THREAD`, `NOTIFY_REFUSED`, `AGENT_CLOSED`) or the signal's reason.
   */
  notify(threadId: string, text: string, options: { signal?: AbortSignal } = {}): Promise<string> {
    return this.core.notify(threadId, text, options);
  }

  /**
   * What the agent holds of a thread now: `running` (a run in flight, also one whose client left,
   * or a turn the server started), `parked` (its turn waits on the client's answer), `idle` (its
   * session is live) or `none`. The Express binding's client limits ask it (its `ThreadHoldings`),
   * so a client is counted for what it really holds until the agent lets it go.
   */
  threadHolding(threadId: string): ThreadHolding {
    return this.core.threadHolding(threadId);
  }

  /**
   * Gives a thread to `owner` (the principal the HTTP binding's `authorize` named) if nobody owns
   * it; `owned` when it is theirs already, `refused` when it is another's, `full` when the store can
   * take no new owner. The owner lives in the thread's record, beside its conversation and
   * transcript: a store that outlives a restart (a save dir, Redis) keeps it too. The binding asks
   * this (`ThreadRecords`); rejects with `AgentError` `THREAD_STORE_UNAVAILABLE`.
   */
  claimThread(threadId: string, owner: string): Promise<ThreadClaim> {
    return this.core.records.claim(threadId, owner);
  }

  /** Undoes a claim whose run was refused before it ran (only while the thread has no conversation yet). */
  releaseThreadClaim(threadId: string, owner: string): Promise<void> {
    return this.core.records.releaseClaim(threadId, owner);
  }

  /** The thread's owner, if it has one. */
  threadOwner(threadId: string): Promise<string | undefined> {
    return this.core.records.owner(threadId);
  }

  /** The threads `owner` owns on this agent, the most recently active first (at most `limit`, at most 200): id, last activity, first user message. */
  listThreads(owner: string, options: { limit: number }): Promise<ListedThread[]> {
    return this.core.records.list(owner, options);
  }

  /**
   * Whether `messages` show the thread's transcript: its newest user message (by id and text), the
   * proof a `connect` without a principal must give. True for a thread the agent knows nothing of.
   */
  showsTranscript(threadId: string, messages: readonly TranscriptMessage[]): Promise<boolean> {
    return this.core.records.showsTranscript(threadId, messages);
  }

  /**
   * Told the name the HTTP binding serves the agent under: without an `agentId`, its threads are
   * kept under that name, so two agents bound under two names never share records. Throws
   * `AgentError` `CONFIG_INVALID` when that would make two live agents share records on one store
   * (or this agent was already served under another name), naming the clash.
   */
  useRouteName(name: string): void {
    this.core.identity.useRouteName(name);
  }

  /**
   * What the agent advertises (`/capabilities`), derived from its options so it never claims what it
   * cannot do (no interrupts without questions or approvals, no code execution without
   * `run_command`), and from what its harness said (the command sandbox). The `capabilities` option
   * replaces it whole.
   */
  override async getCapabilities(): Promise<AgentCapabilities> {
    return this.core.capabilities();
  }

  /**
   * Resolves once the agent's configuration is known to suit the harness's release (the
   * `harnessVersion` option, ANTIGRAVITY_HARNESS_VERSION, the emulator's profile, else the newest);
   * rejects with `AgentError` `CONFIG_INVALID` naming an option the release lacks and the first
   * release that has it, which every run is then refused with. (Invalid fields and the safety gate
   * are refused by the constructor.) A server can await it before it listens.
   */
  checkConfiguration(): Promise<void> {
    return this.core.checkConfiguration();
  }

  /**
   * A copy for one request: its own AG-UI fields (thread id, messages, state, subscribers), and this
   * agent's sessions, transcripts, pool, thread store and lifetime (closing one closes both).
   */
  override clone(): AntigravityAgent {
    const copy = super.clone() as AntigravityAgent;
    Object.defineProperty(copy, "core", { value: this.core, enumerable: false });
    return copy;
  }

  /** Sessions, parked sessions and remembered threads, for a `/metrics` route. */
  stats(): AgentStats {
    return this.core.stats();
  }

  /**
   * Whether a run would be accepted now, and if not the code and reason it would be refused with:
   * the agent is closing, no harness can be found (`harness: "discover"` with nothing installed),
   * the pool is closing, or the thread store (Redis) does not answer. The Express binding serves it
   * as `GET /readyz`. Starts no harness process.
   */
  readiness(): Promise<AgentReadiness> {
    return this.core.readiness();
  }

  /** The pool's metrics, once the pool exists. */
  async poolMetrics(): Promise<PoolMetrics> {
    return (await this.core.pool()).metrics();
  }

  /** Closes every session and the agent's own pool and thread store (not shared ones). Idempotent; clones share it. */
  close(options: { deadlineMs?: number } = {}): Promise<void> {
    return this.core.close(options);
  }

  /** Aborted, with an `AgentError` `AGENT_CLOSED`, when `close()` starts (on this agent or a clone). */
  get signal(): AbortSignal {
    return this.core.signal;
  }

  /** Resolves when `close()` has finished. */
  get closed(): Promise<void> {
    return this.core.closed;
  }
}
