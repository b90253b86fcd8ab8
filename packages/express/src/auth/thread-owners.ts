import { keepsThreadRecords, type ListedThread, type ThreadClaim, type TranscriptMessage } from "@ag-ui-antigravity/foundation";
import type { AgentTarget } from "../routes/authorized-target.js";
import type { OwnershipKey, ThreadOwnershipStore } from "./thread-ownership-store.js";

/**
 * Who owns an agent's threads, as a route asks: the agent's own records when it keeps them
 * (`ThreadRecords`, as `AntigravityAgent` does: owner, conversation and transcript in one record, so
 * they never disagree and a restart changes no owner), else the binding's ownership store (any other
 * AG-UI agent). Methods reject when the store behind them cannot be reached.
 */
export interface ThreadOwners {
  claim(threadId: string, owner: string): Promise<ThreadClaim>;
  /** Undoes a claim whose run was refused before it ran. */
  release(threadId: string, owner: string): Promise<void>;
  ownerOf(threadId: string): Promise<string | undefined>;
  /** The owner's threads; undefined when the agent keeps no thread list. */
  readonly list: ((owner: string, options: { limit: number }) => Promise<ListedThread[]>) | undefined;
  /**
   * Without `authorize`: whether a `connect` caller shows the thread's transcript (its newest user
   * message); undefined when the agent cannot tell (any caller is served, as before).
   */
  readonly showsTranscript: ((threadId: string, messages: readonly TranscriptMessage[]) => Promise<boolean>) | undefined;
}

/** The owners of `target`'s threads (see `ThreadOwners`). */
export function threadOwnersOf(target: AgentTarget, fallback: ThreadOwnershipStore): ThreadOwners {
  const agent = target.agent;
  if (keepsThreadRecords(agent)) {
    return {
      claim: (threadId, owner) => agent.claimThread(threadId, owner),
      release: (threadId, owner) => agent.releaseThreadClaim(threadId, owner),
      ownerOf: (threadId) => agent.threadOwner(threadId),
      list: (owner, options) => agent.listThreads(owner, options),
      showsTranscript: (threadId, messages) => agent.showsTranscript(threadId, messages),
    };
  }
  // Keyed by (agent, thread): the same thread id on a sibling agent is another thread.
  const keyOf = (threadId: string): OwnershipKey => ({ agentId: target.name ?? agent.agentId ?? "agent", threadId });
  return {
    claim: (threadId, owner) => fallback.claim(keyOf(threadId), owner),
    release: (threadId, owner) => fallback.release(keyOf(threadId), owner),
    ownerOf: (threadId) => fallback.ownerOf(keyOf(threadId)),
    list: undefined,
    showsTranscript: undefined,
  };
}
