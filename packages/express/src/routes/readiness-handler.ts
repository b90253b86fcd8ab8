import type { AbstractAgent } from "@ag-ui/client";
import type { AgentReadiness } from "@ag-ui-antigravity/foundation";
import type { Request, RequestHandler, Response } from "express";
import { relayedHttpError, sendHttpError } from "../errors/http-error.js";
import type { AgentRegistry } from "../options/agent-registry.js";


/** An agent with an optional `readiness()` method (`AntigravityAgent` has one). */
interface ReadinessReporter {
  readiness(): Promise<AgentReadiness>;
}

/** How long a finished check's answer is reused: probes from several balancers cost one check per second. */
const REUSE_MS = 1_000;

function reportsReadiness(agent: AbstractAgent): agent is AbstractAgent & ReadinessReporter {
  return typeof (agent as Partial<ReadinessReporter>).readiness === "function";
}

/**
 * GET handler for the readiness route: 200 `{ "status": "ready" }` while every agent that reports
 * readiness would accept a run, else 503 with the first refusal as the binding's error body
 * (`{ error: { code, message } }`, the agent's name first when there are several) and
 * `Retry-After`. While the router is closing, its admission answers 503 `SERVER_CLOSED` before this
 * runs. Agents without `readiness()` count as ready. Probes that arrive while a check runs share it,
 * and its answer is reused for a second after it finished.
 */
export function createReadinessHandler(registry: AgentRegistry): RequestHandler {
  const agents: Array<[string | undefined, AbstractAgent & ReadinessReporter]> = [];
  const entries: Array<[string | undefined, AbstractAgent]> = registry.kind === "single" ? [[undefined, registry.agent]] : [...registry.agents];
  for (const [name, agent] of entries) if (reportsReadiness(agent)) agents.push([name, agent]);

  type Refusal = { name: string | undefined; readiness: AgentReadiness } | undefined;
  /** The check in flight, or the last one with when it finished. */
  let latest: { answer: Promise<Refusal>; finishedAt: number | undefined } | undefined;
  const check = async (): Promise<Refusal> => {
    const results = await Promise.all(
      agents.map(async ([name, agent]) => {
        try {
          return { name, readiness: await agent.readiness() };
        } catch {
          // A check that fails is a refusal too: nothing says runs would go through.
          return { name, readiness: { ready: false, code: "INTERNAL_ERROR", reason: "The agent's readiness check failed." } as AgentReadiness };
        }
      }),
    );
    return results.find((result) => !result.readiness.ready);
  };

  return (_request: Request, response: Response): void => {
    const stale = latest?.finishedAt !== undefined && Date.now() - latest.finishedAt >= REUSE_MS;
    if (latest === undefined || stale) {
      const started: { answer: Promise<Refusal>; finishedAt: number | undefined } = { answer: check(), finishedAt: undefined };
      void started.answer.then(() => (started.finishedAt = Date.now()));
      latest = started;
    }
    void latest.answer.then((refusal) => {
      response.set("Cache-Control", "no-store");
      if (refusal === undefined || refusal.readiness.ready) {
        response.status(200).json({ status: "ready" });
        return;
      }
      const { code, reason } = refusal.readiness;
      sendHttpError(response, relayedHttpError(503, code, refusal.name === undefined ? reason : `${refusal.name}: ${reason}`, { retryAfterSeconds: 5 }));
    });
  };
}
