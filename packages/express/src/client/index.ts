export { AntigravityHttpAgent, HttpStreamError } from "./antigravity-http-agent.js";
export type { AntigravityHttpAgentConfig } from "./antigravity-http-agent.js";
