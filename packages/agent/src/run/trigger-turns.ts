import { randomUUID } from "node:crypto";
import type { RunAgentInput } from "@ag-ui/client";
import type { Turn } from "@ag-ui-antigravity/harness";
import type { AntigravityAgentLogger } from "../agent-options.js";
import { AgentError } from "../errors/agent-error.js";
import type { AntigravitySession } from "../sessions/antigravity-session.js";
import type { SessionManager } from "../sessions/session-manager.js";
import { backgroundTurnEvents } from "./background-turn-events.js";
import type { ThreadChannels } from "../threads/replay/thread-channels.js";

/** Defaults of the `triggerLimits` option. */
export const DEFAULT_TRIGGER_TURNS_PER_THREAD = 12;
export const DEFAULT_TRIGGER_TURNS_IN_FLIGHT = 4;

export interface TriggerTurnsOptions {
  readonly sessions: SessionManager<AntigravitySession>;
  readonly channels: ThreadChannels;
  /** Trigger turns a thread runs without a client run in between; then its session is retired. */
  readonly maxTurnsPerThread: number;
  /** Trigger turns relayed at once over the agent; more are cancelled. */
  readonly maxTurnsInFlight: number;
  readonly logger: AntigravityAgentLogger;
  /** True once the agent is closing: a turn still waiting for its thread is dropped. */
  isClosing(): boolean;
  /** Gives the session's conversation back to the pool's offer list once the turn released it. */
  offerToPool(session: AntigravitySession): void;
}

/**
 * Turns the harness starts by itself (a trigger, a background result) relayed as server-initiated
 * runs on the thread's channel, within bounds: each is a model turn nobody asked for. It owns the
 * trigger limits: at most `maxTurnsInFlight` at once (others cancelled), at most
 * `maxTurnsPerThread` on a thread without a client run (then its session is retired, which stops
 * its triggers until a client runs it again). A trigger turn never counts as the thread's use, so a
 * thread nobody runs also retires after its idle timeout.
 */
export class TriggerTurns {
  readonly #options: TriggerTurnsOptions;
  #inFlight = 0;

  constructor(options: TriggerTurnsOptions) {
    this.#options = options;
  }

  /** Relays one turn the harness started on `session`'s conversation. */
  async relay(session: AntigravitySession, turn: Turn): Promise<void> {
    const { logger, maxTurnsInFlight, maxTurnsPerThread } = this.#options;
    const threadId = session.threadId;
    if (this.#inFlight >= maxTurnsInFlight) {
      turn.cancel();
      logger.warn?.({ threadId, maxTurnsInFlight }, "a trigger turn was cancelled: the agent already runs as many trigger turns as triggerLimits.maxTurnsInFlight allows");
      return;
    }
    this.#inFlight += 1;
    try {
      await this.#relayOnChannel(session, turn);
    } finally {
      this.#inFlight -= 1;
    }
    if (session.countTriggerTurn() >= maxTurnsPerThread && this.#options.sessions.evict(threadId, session, "trigger-limit")) {
      logger.warn?.({ threadId, maxTurnsPerThread }, "thread retired after as many trigger turns without a client run as triggerLimits.maxTurnsPerThread allows; its triggers stop until a client runs it again");
    }
  }

  /**
   * The turn as a server-initiated run on the thread's channel: it waits for the thread like any
   * run, then streams to `stayOpen` clients and into the transcript. The harness keeps the turn's
   * steps until they are read.
   */
  async #relayOnChannel(session: AntigravitySession, turn: Turn): Promise<void> {
    const { sessions, channels } = this.#options;
    const threadId = session.threadId;
    const forever = new AbortController().signal;
    let lease;
    for (;;) {
      if (this.#options.isClosing()) return;
      try {
        // A turn nobody asked for does not count as use: the thread still retires when idle.
        lease = await sessions.acquire(threadId, { reuse: () => true, refreshesIdle: false });
        break;
      } catch (error) {
        if (!AgentError.isInstance(error) || error.code !== "THREAD_BUSY") throw error;
        await channels.get(threadId).nextRunEnd(forever, 1_000);
      }
    }
    lease.session.offerToPool(undefined);
    try {
      // The thread's session was replaced meanwhile: its conversation, and so this turn, is gone.
      if (lease.session !== session) return;
      const channel = channels.get(threadId, { forRun: true });
      await channel.transcript.settled();
      const view = channel.transcript.view;
      const input: RunAgentInput = {
        threadId,
        runId: randomUUID(),
        messages: structuredClone(view.messages),
        state: structuredClone(view.state ?? {}),
        tools: [...channel.lastTools],
        context: [],
        forwardedProps: {},
      };
      const recorded = channel.begin(input, { serverInitiated: true });
      try {
        for await (const event of backgroundTurnEvents(session, turn, input)) {
          lease.touch();
          recorded.record(event);
        }
      } finally {
        channel.finish(recorded);
      }
    } finally {
      lease.release();
      this.#options.offerToPool(lease.session);
    }
  }
}
