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
 * The one method the Express binding's client limits need from an agent: what it holds of a thread,
 * so a client is counted for what it really holds until the agent lets it go (a run until the agent
 * says it ended, not when its client left; a park until the agent lets it go, not when a request
 * about it was refused). `AntigravityAgent` implements it; it lives in this package because
 * the binding may not import the agent.
 */
export interface ThreadHoldings {
  /** Synchronous and cheap: it is asked for each thread a client holds, at each of its requests. */
  threadHolding(threadId: string): ThreadHolding;
}
