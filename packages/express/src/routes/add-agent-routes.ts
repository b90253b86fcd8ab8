import type { Router } from "express";
import { keepsThreadRecords } from "@ag-ui-antigravity/foundation";
import { MemoryOwnershipStore } from "../auth/memory-ownership-store.js";
import { threadOwnersOf, type ThreadOwners } from "../auth/thread-owners.js";
import { replicaHeader } from "../http/replica-header.js";
import { ClientAccounts } from "../limits/client-accounts.js";
import type { AgentRegistry } from "../options/agent-registry.js";
import type { ResolvedAgentRouterOptions } from "../options/binding-options.js";
import type { AgentTarget, ResolveAgent } from "./authorized-target.js";
import { createCapabilitiesHandler } from "./capabilities-handler.js";
import { healthHandler } from "./health-handler.js";
import { createReadinessHandler } from "./readiness-handler.js";
import type { RouterLifetime } from "./router-lifetime.js";
import { createRunHandler } from "./run-handler.js";
import { createThreadsHandler } from "./threads-handler.js";

/**
 * What routes are added to: an Express router, or an app (whose own router then serves them). An
 * app's `get` with a name alone reads a setting; a route always comes with its handlers.
 */
export type RouteTarget = Pick<Router, "use" | "post"> & { get: Router["post"] };

/**
 * Adds the agent routes (see `createAgentRouter`) to `target`, each admitted by `lifetime`. Returns
 * what closes what the routes created themselves (the default ownership store), for the lifetime's
 * owner to call once every request has ended.
 */
export function addAgentRoutes(
  target: RouteTarget,
  registry: AgentRegistry,
  resolved: ResolvedAgentRouterOptions,
  lifetime: RouterLifetime,
): () => Promise<void> {
  // An agent that keeps its threads' records (AntigravityAgent) keeps their owners in them, under
  // the name it is served by unless it has an id of its own: two agents bound under two names never
  // share records, and two that would are refused here, at start, naming the clash.
  if (registry.kind === "named") for (const [name, agent] of registry.agents) if (keepsThreadRecords(agent)) agent.useRouteName(name);
  const agents = registry.kind === "single" ? [registry.agent] : [...registry.agents.values()];
  if (resolved.ownershipStore !== undefined && agents.some((agent) => keepsThreadRecords(agent))) {
    resolved.logger.warn({}, "ownershipStore is not used for agents that keep their threads' owners in their own records (AntigravityAgent): give them a saveDir or a thread store that outlives restarts instead");
  }
  // For other agents: keyed by (agent, thread), so the same thread id on a sibling agent is another thread.
  const threadOwnership = resolved.ownershipStore ?? new MemoryOwnershipStore({ maxEntries: resolved.maxThreadOwners });
  const accounts = resolved.clientLimits === undefined ? undefined : new ClientAccounts(resolved.clientLimits);
  if (accounts !== undefined && resolved.authorize === undefined) {
    resolved.logger.info(
      { clientLimits: resolved.clientLimits },
      "client limits count per client address (no authorize hook): clients behind one proxy or NAT share one budget unless Express's trust proxy setting names the proxy",
    );
  }
  const owners = new WeakMap<object, ThreadOwners>();
  const ownersOf = (target: AgentTarget): ThreadOwners => {
    let found = owners.get(target.agent);
    if (found === undefined) {
      found = threadOwnersOf(target, threadOwnership);
      owners.set(target.agent, found);
    }
    return found;
  };
  const services = { options: resolved, ownersOf, accounts };
  const { admit, admitRun } = lifetime;

  if (resolved.replicaId !== undefined) target.use(replicaHeader(resolved.replicaId));
  if (resolved.healthPath !== undefined) target.get(resolved.healthPath, admit, healthHandler);
  if (resolved.readyPath !== undefined) target.get(resolved.readyPath, admit, createReadinessHandler(registry));

  let resolveAgent: ResolveAgent;
  let runPath: string;
  if (registry.kind === "single") {
    const agentTarget = { agent: registry.agent, name: undefined };
    resolveAgent = () => agentTarget;
    runPath = resolved.basePath;
  } else {
    const agents = registry.agents;
    resolveAgent = (request) => {
      const name = request.params["agentName"];
      if (typeof name !== "string") return undefined;
      const agent = agents.get(name);
      return agent === undefined ? undefined : { agent, name };
    };
    runPath = `${resolved.basePath}/:agentName`;
  }

  const runHandler = createRunHandler({ resolveAgent, services });
  target.post(runPath === "" ? "/" : runPath, admitRun, runHandler);
  target.post(`${runPath}/run`, admitRun, runHandler);
  target.post(`${runPath}/connect`, admit, createRunHandler({ resolveAgent, services, kind: "connect" }));
  target.get(`${runPath}/capabilities`, admit, createCapabilitiesHandler(resolveAgent, resolved));
  target.get(`${runPath}/threads`, admit, createThreadsHandler(resolveAgent, services));
  // A store passed in is the caller's; the default one is the routes' own.
  return () => (resolved.ownershipStore === undefined ? threadOwnership.close() : Promise.resolve());
}
