/**
 * Whether an agent would accept a run now. When not, `code` is the client error code a run would
 * be refused with (`HARNESS_NOT_FOUND`, `THREAD_STORE_UNAVAILABLE`, `AGENT_CLOSED`, …) and `reason`
 * says why in words safe to show a client (no paths, no keys). The agent reports it
 * (`AntigravityAgent.readiness()`) and the Express binding serves it (`GET /readyz`); the two may not
 * import each other, so the shape lives here.
 */
export type AgentReadiness =
  | {
      /** The agent would accept a run now. */
      ready: true;
    }
  | {
      /** The agent would refuse a run now. */
      ready: false;
      /** The client error code a run would be refused with (`HARNESS_NOT_FOUND`, `AGENT_CLOSED`, …). */
      code: string;
      /** Why, in words safe to show a client (no paths, no keys). */
      reason: string;
    };
