import type { AbstractAgent } from "@ag-ui/client";
import type { ThreadHolding, ThreadHoldings } from "@ag-ui-antigravity/foundation";

export type { ThreadHolding, ThreadHoldings };

/**
 * The agent's answer about one thread, or undefined when the agent does not implement
 * `ThreadHoldings` (the binding then counts from what its runs' events say: a `RUN_FINISHED` with
 * an interrupt outcome parks).
 */
export function holdingProbeOf(agent: AbstractAgent, threadId: string): (() => ThreadHolding) | undefined {
  const reporter = agent as Partial<ThreadHoldings>;
  if (typeof reporter.threadHolding !== "function") return undefined;
  return () => reporter.threadHolding!.call(agent, threadId);
}
