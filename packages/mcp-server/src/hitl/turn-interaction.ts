import type { ElicitRequestFormParams, ElicitResult } from "@modelcontextprotocol/sdk/types.js";

/**
 * The MCP client running a turn, as the turn's questions and approvals reach it. `elicit` is
 * undefined when that client did not declare the elicitation capability; what could not be asked
 * is written to `notes`, which the turn's reply repeats so the caller knows.
 */
export interface TurnInteraction {
  /**
   * Sends one elicitation form to the client and resolves with its answer (accept, decline or
   * cancel); `options.signal` abandons the request. The server's own also gives up after 30 minutes.
   */
  elicit: ((form: ElicitRequestFormParams, options: { signal: AbortSignal }) => Promise<ElicitResult>) | undefined;
  /** What could not be asked of the client and what became of it, one sentence each; returned as `TurnOutcome.notes`. */
  readonly notes: string[];
  /** Aborted when the turn ends or its caller cancels the tool call. */
  readonly signal: AbortSignal;
}
