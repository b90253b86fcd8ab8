import { linkSignals } from "@ag-ui-antigravity/foundation";
import type { AgentContext, ClientCapabilities } from "@agentclientprotocol/sdk";
import type { PendingEdit } from "../turns/file-edits.js";
import type { StepUpdates } from "../turns/step-updates.js";
import type { ToolCallBook } from "../turns/tool-call-book.js";
import type { UpdateChannel } from "../turns/update-channel.js";
import type { SessionModeId } from "./session-modes.js";

/**
 * The prompt running on a session, as its hooks reach the user: the client to ask, what it can do,
 * the channel its updates go through, and the tool calls and pending edits of the session. Absent
 * while no prompt runs: nobody can be asked then, and what needs asking is refused.
 */
export interface PromptInteraction {
  sessionId: string;
  client: AgentContext;
  capabilities: ClientCapabilities;
  /** Aborted when the prompt is cancelled or ends: a question or permission request waiting on it gives up. */
  signal: AbortSignal;
  channel: UpdateChannel;
  book: ToolCallBook;
  updates: StepUpdates;
  edits: Map<string, PendingEdit>;
  permissionTimeoutMs: number;
  /** Tool calls the user allowed in this prompt (a confirmation of one is not asked twice). */
  approved: Set<string>;
}

/** The session's approval state: its mode and what the user chose "always" for. */
export interface PermissionState {
  readonly mode: SessionModeId;
  readonly alwaysAllowed: ReadonlySet<string>;
  /** Remembers an "always" choice for the rest of the session (and in its record). */
  allowAlways(key: string): void;
}

/** Why a request to the user ended without an answer. */
export class NoAnswer extends Error {
  constructor(readonly why: "timeout" | "cancelled" | "failed", message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * Runs a request to the user that may wait on them, bounded by the prompt (cancel) and by
 * `timeoutMs`; either ending rejects with NoAnswer.
 */
export async function askUser<T>(interaction: PromptInteraction, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), interaction.permissionTimeoutMs);
  timer.unref();
  const link = linkSignals([interaction.signal, deadline.signal]);
  try {
    return await work(link.signal);
  } catch (error) {
    if (deadline.signal.aborted) throw new NoAnswer("timeout", `nobody answered within ${Math.round(interaction.permissionTimeoutMs / 1000)} s`, { cause: error });
    if (interaction.signal.aborted) throw new NoAnswer("cancelled", "the prompt was cancelled", { cause: error });
    throw new NoAnswer("failed", error instanceof Error ? error.message : String(error), { cause: error });
  } finally {
    clearTimeout(timer);
    link.unlink();
  }
}
