import type { AgentCapabilities } from "@ag-ui/core";
import { AgentCapabilitiesSchema } from "@ag-ui/core/schemas";
import type { Request, Response } from "express";
import { httpError, sendHttpError } from "../errors/http-error.js";
import type { ResolvedAgentRouterOptions } from "../options/binding-options.js";
import { referenceFailure } from "../run/failure-reference.js";
import { resolveAuthorizedTarget, type ResolveAgent } from "./authorized-target.js";

/**
 * GET handler for `<path>/capabilities`. An agent without `getCapabilities()` answers `{}`: every
 * field of AG-UI capabilities is optional and an absent one means "unknown", which is the truth.
 * What the agent returns is validated, so a client never receives capabilities it would reject.
 */
export function createCapabilitiesHandler(
  resolveAgent: ResolveAgent,
  options: ResolvedAgentRouterOptions,
): (request: Request, response: Response) => Promise<void> {
  const logger = options.logger;
  return async (request, response) => {
    const authorized = await resolveAuthorizedTarget(request, response, resolveAgent, options);
    if (authorized === undefined) return;
    const { target } = authorized;
    let capabilities: AgentCapabilities;
    try {
      const reported: unknown = target.agent.getCapabilities === undefined ? {} : await target.agent.getCapabilities();
      const parsed = AgentCapabilitiesSchema.safeParse(reported);
      if (!parsed.success) throw new TypeError(`getCapabilities() returned an invalid payload: ${parsed.error.message}`);
      capabilities = withBindingTransport(parsed.data as AgentCapabilities);
    } catch (error) {
      const failure = referenceFailure("The agent's capabilities are unavailable.");
      logger.error({ agent: target.name, err: error, correlationId: failure.correlationId }, "capabilities failed");
      sendHttpError(response, httpError("INTERNAL_ERROR", failure.message));
      return;
    }
    response.status(200).set("Cache-Control", "no-store").json(capabilities);
  };
}

/**
 * What the binding itself serves, said in the agent's capabilities: every route answers a client
 * that asks for the AG-UI protobuf media type with protobuf (`transport.httpBinary`), whatever the
 * agent. An agent that says nothing of its transport is still served as a stream.
 */
function withBindingTransport(capabilities: AgentCapabilities): AgentCapabilities {
  if (Object.keys(capabilities).length === 0) return capabilities;
  return { ...capabilities, transport: { streaming: true, ...capabilities.transport, httpBinary: true } };
}
