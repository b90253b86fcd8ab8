/**
 * Whether an agent would accept a run now. When not, `code` is the client error code a run would
 * be refused with (`HARNESS_NOT_FOUND`, `THREAD_STORE_UNAVAILABLE`, `AGENT_CLOSED`, …) and `reason`
 * says why in words safe to show a client (no paths, no keys). The agent reports it
 * (`AntigravityAgent.readiness()`) and the Express binding serves it (`GET /readyz`); the two may not
 * import each other, so the shape lives here.
 */
export type AgentReadiness = { ready: true } | { ready: false; code: string; reason: string };
