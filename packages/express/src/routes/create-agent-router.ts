import express, { type Router } from "express";
import { MemoryOwnershipStore } from "../auth/memory-ownership-store.js";
import { replicaHeader } from "../http/replica-header.js";
import { toAgentRegistry, type AgentOrAgents } from "../options/agent-registry.js";
import { resolveAgentRouterOptions, type AgentRouterOptions } from "../options/binding-options.js";
import { createCapabilitiesHandler } from "./capabilities-handler.js";
import { healthHandler } from "./health-handler.js";
import { PrincipalBudget } from "../limits/principal-budget.js";
import type { ResolveAgent } from "./authorized-target.js";
import { createRunHandler } from "./run-handler.js";
import { RouterLifetime, type AgentRouterLifetime } from "./router-lifetime.js";

/** The router, with `close()`, `signal` and `closed` for its owner. */
export type AgentRouter = Router & AgentRouterLifetime;

/**
 * An Express router serving one AG-UI agent, or several keyed by name:
 * - `POST <path>` (or `POST <path>/<name>`), also at `…/run`: run the agent, stream its events;
 * - `POST <path>/connect` (or `<path>/<name>/connect`): AG-UI's reconnect, the agent's `connect`
 *   stream, resumed after `Last-Event-ID` (the shape of CopilotKit's runtime v2 connect route);
 * - `GET <path>/capabilities` (or `<path>/<name>/capabilities`): the agent's capabilities;
 * - `GET /healthz`: liveness.
 *
 * Mount it anywhere (`app.use("/ag-ui", router)`); paths are relative to the mount point. Do not
 * put response compression in front of it unless it honours `Cache-Control: no-transform`.
 *
 * @example
 * ```ts
 * const app = express();
 * app.use("/ag-ui", createAgentRouter({ chat: chatAgent, research: researchAgent }));
 * ```
 */
export function createAgentRouter(agentOrAgents: AgentOrAgents, options: AgentRouterOptions = {}): AgentRouter {
  const registry = toAgentRegistry(agentOrAgents);
  const resolved = resolveAgentRouterOptions(options);
  // Keyed by (agent, thread): the agent package keeps each agent's threads (conversations and
  // workspaces) apart, so the same thread id on a sibling agent is another thread.
  const threadOwnership = resolved.ownershipStore ?? new MemoryOwnershipStore({ maxEntries: resolved.maxThreadOwners });
  const budget = resolved.clientLimits === undefined ? undefined : new PrincipalBudget(resolved.clientLimits);
  const router = express.Router();
  // Only the router's own routes are tracked and refused once closed; what the app mounts around it is not.
  const lifetime = new RouterLifetime();
  const { admit, admitRun } = lifetime;

  if (resolved.replicaId !== undefined) router.use(replicaHeader(resolved.replicaId));
  if (resolved.healthPath !== undefined) router.get(resolved.healthPath, admit, healthHandler);

  let resolveAgent: ResolveAgent;
  let runPath: string;
  if (registry.kind === "single") {
    const target = { agent: registry.agent, name: undefined };
    resolveAgent = () => target;
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

  const runHandler = createRunHandler(resolveAgent, resolved, threadOwnership, budget);
  router.post(runPath === "" ? "/" : runPath, admitRun, runHandler);
  router.post(`${runPath}/run`, admitRun, runHandler);
  router.post(`${runPath}/connect`, admit, createRunHandler(resolveAgent, resolved, threadOwnership, budget, "connect"));
  router.get(`${runPath}/capabilities`, admit, createCapabilitiesHandler(resolveAgent, resolved));
  // A store passed in is the caller's; the default one is the router's own.
  return lifetime.attachTo(router, () => (resolved.ownershipStore === undefined ? threadOwnership.close() : Promise.resolve()));
}
