import type { Conversation, ConversationConfig, Turn } from "@ag-ui-antigravity/harness";
import type { HitlBridgeOptions } from "@ag-ui-antigravity/hitl";
import type { HarnessPool } from "@ag-ui-antigravity/pool";
import type { ObserverSettings } from "../hooks/observer-hooks.js";
import type { ForwardedMessage } from "../input/message-fingerprint.js";
import type { LeaseToken, ThreadKey, ThreadStore, ThreadSummary } from "../threads/store/thread-store.js";
import type { AntigravitySession } from "./antigravity-session.js";

/** Everything a session needs from its agent. */
export interface SessionEnvironment {
  pool: HarnessPool;
  threadStore: ThreadStore;
  /** The (agent, thread) the store knows this thread by. */
  threadKey: ThreadKey;
  /** The harness conversation config shared by every thread (model, instructions, builtins, ...). */
  baseConfig: ConversationConfig;
  partition: { storageDirectory?: string; env?: Record<string, string> };
  bridgeOptions: HitlBridgeOptions;
  structuredOutputAs: "state" | "custom";
  /** The state key structured output is merged under. */
  structuredOutputKey: string;
  model: string;
  /** The thread's own workspace, when the agent has a workspace root. */
  workspaceFor(threadId: string): Promise<string | undefined>;
  warn(details: Record<string, unknown>, message: string): void;
  /** A turn the harness started on its own (a trigger, a background result) on this session's conversation. */
  onBackgroundTurn(session: AntigravitySession, turn: Turn): void;
  /** What the agent watches in the conversation's hooks (continuations, compactions, tasks, schedules). */
  observers: ObserverSettings;
  /** The conversation's custom subagents, whose descriptions the client is told. */
  subagents: ReadonlyArray<{ name: string; description?: string }>;
  /** A conversation was opened: what it says about its harness (sandbox availability). */
  onConversationOpened(conversation: Conversation): void;
}

export interface SessionSeed {
  conversationId?: string;
  forwarded: ForwardedMessage[];
  toolSignature: string;
  /** The thread's summary and first write, from its record (carried on by every write). */
  summary?: ThreadSummary;
  createdAt?: number;
  /** The lease the thread is held by on this replica (a store with leases): every write carries it. */
  lease?: LeaseToken;
  /** A spare (opened ahead of any thread, see spare-sessions.ts): its workspace, removed if no thread adopts it. */
  spare?: { workspace: string | undefined };
}

/** Whose session this is; a spare's changes once, when a new thread adopts it. */
export interface SessionIdentity {
  threadId: string;
  workspace: string | undefined;
}
