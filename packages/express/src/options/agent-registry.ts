import type { AbstractAgent } from "@ag-ui/client";
import { ExpressBindingError } from "../errors/express-binding-error.js";

/** One agent, or several keyed by the path segment each is served under. */
export type AgentOrAgents = AbstractAgent | Readonly<Record<string, AbstractAgent>>;

/** Names are path segments; unreserved URL characters only, so no encoding ambiguity arises. */
const AGENT_NAME = /^[A-Za-z0-9._~-]+$/;

export type AgentRegistry =
  | { readonly kind: "single"; readonly agent: AbstractAgent }
  | { readonly kind: "named"; readonly agents: ReadonlyMap<string, AbstractAgent> };

/** Tells one agent from a map of agents and checks every entry; throws `CONFIG_INVALID`. */
export function toAgentRegistry(agentOrAgents: AgentOrAgents): AgentRegistry {
  if (isAgent(agentOrAgents)) return { kind: "single", agent: agentOrAgents };
  if (typeof agentOrAgents !== "object" || agentOrAgents === null) {
    throw new ExpressBindingError("CONFIG_INVALID", "Expected an AG-UI agent or an object of agents keyed by name.");
  }
  const agents = new Map<string, AbstractAgent>();
  for (const [name, agent] of Object.entries(agentOrAgents)) {
    if (!AGENT_NAME.test(name) || name === "." || name === "..") {
      throw new ExpressBindingError("CONFIG_INVALID", `Agent name ${JSON.stringify(name)} is not a plain path segment ([A-Za-z0-9._~-]).`);
    }
    if (!isAgent(agent)) {
      throw new ExpressBindingError("CONFIG_INVALID", `Agent ${JSON.stringify(name)} has no run() and clone(); expected an AG-UI AbstractAgent.`);
    }
    agents.set(name, agent);
  }
  if (agents.size === 0) throw new ExpressBindingError("CONFIG_INVALID", "The map of agents is empty.");
  return { kind: "named", agents };
}

function isAgent(value: unknown): value is AbstractAgent {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as { run?: unknown; clone?: unknown };
  return typeof candidate.run === "function" && typeof candidate.clone === "function";
}
