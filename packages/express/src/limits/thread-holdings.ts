import type { AbstractAgent } from "@ag-ui/client";

/**
 * What an agent holds of one thread right now:
 * - `running`: a run of the thread is in flight, also one whose client left, or a turn the server
 *   started (a trigger, a notification);
 * - `parked`: the thread's turn waits on the client's answer (a question, an approval, a frontend
 *   tool, a server tool's interrupt);
 * - `idle`: the agent keeps the thread's session, and may start a turn on it by itself;
 * - `none`: the agent holds nothing of the thread.
 */
export type ThreadHolding = "running" | "parked" | "idle" | "none";

/**
 * What an AG-UI agent may implement so that the binding's client limits (`clientLimits`) count what
 * it really holds for a client: a run counts until the agent says it ended (not when its client
 * left), a park until the agent lets it go (not when a request about it was refused). An agent
 * without it is counted from what its runs' events say (`RUN_FINISHED` with an interrupt outcome).
 * `AntigravityAgent` implements it.
 */
export interface ThreadHoldings {
  /** Synchronous and cheap: it is asked for each thread a client holds, at each of its runs. */
  threadHolding(threadId: string): ThreadHolding;
}

/** The agent's answer about one thread, or undefined when the agent does not implement `ThreadHoldings`. */
export function holdingProbeOf(agent: AbstractAgent, threadId: string): (() => ThreadHolding) | undefined {
  const reporter = agent as Partial<ThreadHoldings>;
  if (typeof reporter.threadHolding !== "function") return undefined;
  return () => reporter.threadHolding!.call(agent, threadId);
}
