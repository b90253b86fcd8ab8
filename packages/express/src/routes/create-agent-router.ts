import express, { type Router } from "express";
import { resolveAgentRouterOptions, type AgentRouterOptions } from "../options/binding-options.js";
import { toAgentRegistry, type AgentOrAgents } from "../options/agent-registry.js";
import { addAgentRoutes } from "./add-agent-routes.js";
import { RouterLifetime, type AgentRouterLifetime } from "./router-lifetime.js";

/** The router, with `close()`, `signal` and `closed` for its owner. */
export type AgentRouter = Router & AgentRouterLifetime;

/**
 * An Express router serving one AG-UI agent, or several keyed by name:
 * - `POST <path>` (or `POST <path>/<name>`), also at `…/run`: run the agent, stream its events;
 * - `POST <path>/connect` (or `<path>/<name>/connect`): AG-UI's reconnect, the agent's `connect`
 *   stream, resumed after `Last-Event-ID` (the shape of CopilotKit's runtime v2 connect route);
 * - `GET <path>/capabilities` (or `<path>/<name>/capabilities`): the agent's capabilities;
 * - `GET /healthz`: liveness (the process answers);
 * - `GET /readyz`: readiness, 200 while runs would be accepted, 503 with the reason while they
 *   would be refused (an agent's `readiness()`, or the router closing).
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
  const router = express.Router();
  // Only the router's own routes are tracked and refused once closed; what the app mounts around it is not.
  const lifetime = new RouterLifetime();
  const closeOwned = addAgentRoutes(router, registry, resolved, lifetime);
  return lifetime.attachTo(router, closeOwned);
}
