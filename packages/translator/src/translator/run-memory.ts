import type { SubagentInvocation } from "./turn-memory.js";

/** A text message or reasoning span that is open in the current run. */
export interface OpenBlock {
  stepKey: string;
  messageId: string;
  subagentRunId?: string;
}

/**
 * What is open in the current run. A new run starts with all of it empty, because the client's
 * verifier forgets everything at RUN_STARTED: nothing opened in an earlier run may be continued.
 */
export class RunMemory {
  /** At most one open text message per scope (trajectory). */
  readonly openText = new Map<string, OpenBlock>();
  /** At most one open reasoning span per scope (trajectory). */
  readonly openReasoning = new Map<string, OpenBlock>();
  /** Subagents announced in this run and not yet finished, in announcement order. */
  readonly activeSubagents = new Set<SubagentInvocation>();
  /** Subagents that finished in this run: their id cannot be announced again before the next run. */
  readonly finishedSubagents = new Set<SubagentInvocation>();
}
