/**
 * - `claimed`: the thread had no owner and now belongs to the caller;
 * - `owned`: it already belonged to the caller;
 * - `refused`: it belongs to someone else;
 * - `full`: the store cannot take another owner (an in-memory store at its cap); nothing changed.
 */
export type ThreadClaim = "claimed" | "owned" | "refused" | "full";

/** One thread of a principal's thread list (`GET /<agent>/threads`). */
export interface ListedThread {
  /** The thread's id, as the client sent it in `RunAgentInput.threadId`. */
  readonly threadId: string;
  /** When the thread was last active, as an ISO 8601 date. */
  readonly lastActivityAt: string;
  /** The start of its first user message (200 characters at most). */
  readonly firstUserMessage?: string;
}

/** A message as far as a transcript check reads it (an AG-UI message fits). */
export interface TranscriptMessage {
  /** The message id the client gave it; a transcript is matched message by message on it. */
  readonly id: string;
  /** The AG-UI role (`user`, `assistant`, `tool`, …). */
  readonly role: string;
  /** The message content as the client sent it (a string, or AG-UI content parts); absent on some assistant and tool messages. */
  readonly content?: unknown;
}

/**
 * What the Express binding needs from an agent that keeps its threads' records itself (their
 * conversation, owner and transcript in one place, `AntigravityAgent`): the binding asks the agent
 * who owns a thread instead of keeping owners of its own, so the two can never disagree, and a
 * restart changes no owner when the agent's records survive it. It lives in this package because
 * the binding may not import the agent. Methods reject when the agent's store cannot be reached.
 */
export interface ThreadRecords {
  /** Gives the thread to `owner` if nobody owns it; see `ThreadClaim`. Atomic across replicas sharing the store. */
  claimThread(threadId: string, owner: string): Promise<ThreadClaim>;
  /** Undoes a claim whose run was refused before it ran (only while the thread has no conversation yet). */
  releaseThreadClaim(threadId: string, owner: string): Promise<void>;
  /** The thread's owner, if it has one. */
  threadOwner(threadId: string): Promise<string | undefined>;
  /** The threads `owner` owns, the most recently active first. */
  listThreads(owner: string, options: { limit: number }): Promise<ListedThread[]>;
  /**
   * Without an `authorize` hook: whether `messages` show the thread's transcript (its newest user
   * message, by id and text), the proof a caller must give to `connect` to a thread it cannot
   * otherwise be told apart from anyone who learnt its id. True for a thread the agent knows nothing of.
   */
  showsTranscript(threadId: string, messages: readonly TranscriptMessage[]): Promise<boolean>;
  /**
   * Told the name the binding serves the agent under (`createAntigravityApp({ chat: agent })`): an
   * agent without an id of its own keeps its threads under it, so two agents bound under two names
   * never share records. Throws when that would make two agents share them, naming the clash.
   */
  useRouteName(name: string): void;
}
