import type { ResolvedConversationConfig } from "./conversation-config.js";

/**
 * The client configuration of a conversation as a recording keeps it: everything JSON can hold,
 * custom tools without their handlers, hooks reduced to the names of those set. Secrets are blanked
 * by the caller's redactor; replay rebuilds a conversation from this.
 */
export function summarizeConversationConfig(config: ResolvedConversationConfig): Record<string, unknown> {
  const { customTools, hooks, apiKey, ...rest } = config;
  return {
    ...JSON.parse(JSON.stringify(rest)),
    ...(apiKey === undefined ? {} : { apiKey }),
    customTools: customTools.map(({ handler: _handler, ...tool }) => JSON.parse(JSON.stringify(tool)) as unknown),
    hooks: Object.entries(hooks)
      .filter(([, hook]) => typeof hook === "function")
      .map(([name]) => name)
      .sort(),
  };
}
