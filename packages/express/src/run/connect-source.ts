import type { AbstractAgent } from "@ag-ui/client";
import { AGUIConnectNotImplementedError, type RunAgentInput } from "@ag-ui/core";

/** An agent's event stream, as `AbstractAgent.run` returns it. */
export type AgentEventStream = ReturnType<AbstractAgent["run"]>;

/**
 * The agent's `connect(input)` stream (AG-UI 1.0's reconnect), or undefined when the agent does not
 * implement it. `connect` is protected on `AbstractAgent`, for `connectAgent()` to call; the binding
 * calls it as that method would. The base implementation throws at once, before any stream exists.
 */
export function connectSourceOf(agent: AbstractAgent, input: RunAgentInput): AgentEventStream | undefined {
  const connect = (agent as unknown as { connect?: (input: RunAgentInput) => AgentEventStream }).connect;
  if (typeof connect !== "function") return undefined;
  try {
    return connect.call(agent, input);
  } catch (error) {
    if (error instanceof AGUIConnectNotImplementedError || (error instanceof Error && error.message.startsWith("Connect not implemented"))) return undefined;
    throw error;
  }
}
