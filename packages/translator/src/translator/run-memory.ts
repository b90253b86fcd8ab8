import type { SubagentInvocation } from "./turn-memory.js";

/**
 * What is open in the current run. A new run starts with all of it empty, because the client's
 * verifier forgets everything at RUN_STARTED: nothing opened in an earlier run may be continued.
 */
export class RunMemory {
  /** Subagents announced in this run and not yet finished, in announcement order. */
  readonly activeSubagents = new Set<SubagentInvocation>();
  /** Subagents that finished in this run: their id cannot be announced again before the next run. */
  readonly finishedSubagents = new Set<SubagentInvocation>();

  /**
   * Forgets everything, keeping the collections: a run starts and ends once per request, most often
   * with all of them empty. Only a non-empty one is cleared, since clearing allocates a new table.
   */
  clear(): void {
    if (this.activeSubagents.size > 0) this.activeSubagents.clear();
    if (this.finishedSubagents.size > 0) this.finishedSubagents.clear();
  }
}
