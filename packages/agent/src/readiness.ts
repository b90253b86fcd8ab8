import type { AgentReadiness } from "@ag-ui-antigravity/foundation";
import type { HarnessPool } from "@ag-ui-antigravity/pool";
import { toRunError } from "./run/run-error.js";
import type { ThreadStore } from "./threads/store/thread-store.js";

export type { AgentReadiness };

export interface ReadinessInputs {
  /** Whether `close()` has started. */
  closing: boolean;
  /** The agent's pool, created (and the harness binary found) on first use. */
  pool: () => Promise<HarnessPool>;
  threadStore: ThreadStore;
}

/**
 * Checks, in the order a run meets them: the agent is open, its harness can be found and its pool
 * is open, its thread store answers. Resolving the pool starts no harness process; a missing
 * harness is remembered by the agent, as it is for runs.
 */
export async function agentReadiness(inputs: ReadinessInputs): Promise<AgentReadiness> {
  if (inputs.closing) return { ready: false, code: "AGENT_CLOSED", reason: "The agent is closing." };
  let pool: HarnessPool;
  try {
    pool = await inputs.pool();
  } catch (error) {
    // The same code and words a refused run gets, without the run's log reference.
    const { event } = toRunError(error);
    return { ready: false, code: event.code ?? "AGENT_ERROR", reason: event.message.replace(/ \(ref [0-9a-f]+\)$/, "") };
  }
  if (pool.metrics().closed) return { ready: false, code: "POOL_CLOSED", reason: "The harness pool is closing." };
  if (inputs.threadStore.ping !== undefined) {
    try {
      await inputs.threadStore.ping();
    } catch {
      return { ready: false, code: "THREAD_STORE_UNAVAILABLE", reason: `The agent's ${inputs.threadStore.stats().kind} thread store cannot be reached.` };
    }
  }
  return { ready: true };
}
