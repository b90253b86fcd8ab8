import type { Redactor } from "../observability/redactor.js";
import type { ResolvedConversationConfig } from "./conversation-config.js";

/**
 * A conversation's own redactor: the process's (its harness token, the environment's keys) plus
 * every secret its config carries. Whatever an MCP server or the endpoint is given in env or headers
 * may be a key: it is never shown, not in a recording, a trace, nor an error the harness words around
 * it.
 */
export function conversationRedactor(processRedactor: Redactor, config: ResolvedConversationConfig, apiKey: string | undefined): Redactor {
  const redactor = processRedactor.fork();
  for (const secret of [apiKey, config.apiKey, config.endpoint?.apiKey]) redactor.addSecret(secret);
  redactor.addSecretsOf(config.endpoint?.headers);
  for (const server of config.mcpServers ?? []) {
    redactor.addSecretsOf(server.env);
    redactor.addSecretsOf(server.headers);
  }
  return redactor;
}
