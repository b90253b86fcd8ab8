import type { Partition } from "../partition/partition.js";

/** What the pool needs from a conversation: a way to end it. */
export interface PooledConversation {
  /**
   * Ends the conversation. The pool calls it once the lease ends (released, process died, pool
   * closing) and keeps the slot taken until it settles; a rejection is logged, never thrown.
   */
  close(): Promise<void> | void;
}

/**
 * The part of a harness process the pool uses. `HarnessProcess` from `@ag-ui-antigravity/harness`
 * is adapted to it by default; tests and other runtimes can supply their own through `startProcess`.
 */
export interface PooledProcess<TConfig, TConversation extends PooledConversation> {
  /** The OS pid, for metrics and leak checks. */
  readonly pid: number | undefined;
  /** Aborted when the process is gone, whoever stopped it. The pool reads an unrequested abort as a death. */
  readonly signal: AbortSignal;
  /**
   * True once the OS process has exited, possibly before `signal` aborts (a client may wait for
   * the last stderr lines first). Lets an open that failed because of the exit be retried elsewhere.
   */
  readonly hasExited?: boolean;
  /** Opens one conversation on this process. A failure must leave the process and its other conversations alone. */
  openConversation(config: TConfig, options: { signal?: AbortSignal }): Promise<TConversation>;
  /** Stops the process in stages (stdin end, grace, SIGTERM, SIGKILL). Idempotent. */
  close(options: { gracePeriodMs?: number }): Promise<void>;
  /** Rejects when the process no longer answers. Called on idle processes only. Optional. */
  checkHealth?(options: { signal: AbortSignal }): Promise<void>;
  /** The last stderr lines, attached to the errors of conversations that die with the process. Optional. */
  stderrTail?(): readonly string[];
}

/** Starts one process for a partition. The pool aborts `signal` when it no longer wants the process. */
export type StartProcess<TConfig, TConversation extends PooledConversation> = (
  partition: Partition,
  options: { signal: AbortSignal },
) => Promise<PooledProcess<TConfig, TConversation>>;
