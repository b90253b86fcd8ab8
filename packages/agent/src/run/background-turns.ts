import { randomUUID } from "node:crypto";
import { EventType, type AGUIEvent, type RunAgentInput } from "@ag-ui/client";
import type { Turn } from "@ag-ui-antigravity/harness";
import type { AntigravityAgentLogger, AntigravityAgentOptions } from "../agent-options.js";
import { AgentError } from "../errors/agent-error.js";
import type { AntigravitySession } from "../sessions/antigravity-session.js";
import type { SessionManager } from "../sessions/session-manager.js";
import type { ThreadChannels } from "../threads/replay/thread-channels.js";
import { DEFAULT_TRIGGER_TURNS_IN_FLIGHT, DEFAULT_TRIGGER_TURNS_PER_THREAD, TriggerTurns } from "./trigger-turns.js";
import type { EmitEvent, RunOrigin } from "./run.js";

export interface BackgroundTurnsOptions {
  readonly options: AntigravityAgentOptions;
  readonly logger: AntigravityAgentLogger;
  readonly sessions: SessionManager<AntigravitySession>;
  readonly channels: ThreadChannels;
  /** True once the agent is closing: no new turn starts, and a turn still waiting for its thread is dropped. */
  isClosing(): boolean;
  /** One run on the thread, admitted and recorded like a client's (the agent's `run`). */
  run(input: RunAgentInput, signal: AbortSignal, emit: EmitEvent, origin: RunOrigin): Promise<void>;
  /** Gives the session's conversation back to the pool's offer list once the turn released it. */
  offerToPool(session: AntigravitySession): void;
}

/**
 * Turns nobody's client asked for: a notification the server sends into a thread (`notify`), and
 * the turns the harness starts by itself (triggers, background results), relayed within the
 * `triggerLimits` bounds. Both reach clients connected with `stayOpen` and the thread's transcript.
 */
export class BackgroundTurns {
  readonly #options: BackgroundTurnsOptions;
  readonly #triggerTurns: TriggerTurns;

  constructor(options: BackgroundTurnsOptions) {
    this.#options = options;
    this.#triggerTurns = new TriggerTurns({
      sessions: options.sessions,
      channels: options.channels,
      maxTurnsPerThread: options.options.triggerLimits?.maxTurnsPerThread ?? DEFAULT_TRIGGER_TURNS_PER_THREAD,
      maxTurnsInFlight: options.options.triggerLimits?.maxTurnsInFlight ?? DEFAULT_TRIGGER_TURNS_IN_FLIGHT,
      logger: options.logger,
      isClosing: options.isClosing,
      offerToPool: options.offerToPool,
    });
  }

  /** Relays a turn the harness started on `session`'s conversation; a failure is logged, never thrown. */
  relayHarnessTurn(session: AntigravitySession, turn: Turn): void {
    this.#triggerTurns.relay(session, turn).catch((error: unknown) =>
      this.#options.logger.warn?.({ threadId: session.threadId, error }, "a turn the harness started could not be relayed to AG-UI clients"),
    );
  }

  /**
   * Runs a server-initiated turn on a thread: `text` goes to the model as an automated message (it
   * is not added to the transcript as the user's), and the reply reaches clients connected with
   * `stayOpen`, or the next `connect`'s snapshot. Waits while the thread is busy or waits on a
   * human. Resolves with the run id once the turn has ended.
   */
  async notify(threadId: string, text: string, options: { signal?: AbortSignal } = {}): Promise<string> {
    const { channels, sessions } = this.#options;
    const signal = options.signal ?? new AbortController().signal;
    for (;;) {
      if (this.#options.isClosing()) throw new AgentError("AGENT_CLOSED", "The agent is shutting down.");
      signal.throwIfAborted();
      const channel = channels.peek(threadId);
      if (channel === undefined || !channel.transcript.known) {
        throw new AgentError("UNKNOWN_THREAD", `Thread ${JSON.stringify(threadId)} has no run this agent remembers; a notification needs a conversation to join.`);
      }
      const current = channel.current;
      if (current !== undefined || sessions.isBusyOrParked(threadId)) {
        await channel.nextRunEnd(signal, 1_000);
        continue;
      }
      await channel.transcript.settled();
      if (channel.current !== undefined) continue;
      const view = channel.transcript.view;
      const runId = randomUUID();
      const input: RunAgentInput = {
        threadId,
        runId,
        messages: structuredClone(view.messages),
        state: structuredClone(view.state ?? {}),
        tools: [...channel.lastTools],
        context: [],
        forwardedProps: {},
      };
      let started = false;
      let refusal: { code?: string; message: string } | undefined;
      const note = (event: AGUIEvent): void => {
        if (event.type === EventType.RUN_STARTED) started = true;
        if (event.type === EventType.RUN_ERROR && !started) refusal = { ...(event.code === undefined ? {} : { code: event.code }), message: event.message };
      };
      await this.#options.run(input, signal, note, { injected: [{ text: `[Automated notification; the user did not write this] ${text}` }], serverInitiated: true });
      if (started) return runId;
      // A run slipped in between the check and the acquire: wait for it like any other.
      if (refusal?.code === "THREAD_BUSY") continue;
      throw new AgentError("NOTIFY_REFUSED", `The notification could not run: ${refusal?.message ?? "refused"}`);
    }
  }
}
