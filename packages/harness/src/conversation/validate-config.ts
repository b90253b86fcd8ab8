import { HarnessError } from "../errors/harness-error.js";
import { DEFAULT_BUILTIN_TOOLS, WRITE_CAPABLE_BUILTIN_TOOLS } from "./builtin-tools.js";
import { conversationConfigSchema, type ConversationConfig, type ResolvedConversationConfig } from "./conversation-config.js";

/**
 * Validates a conversation config and applies the safety gate: a write-capable builtin or an MCP
 * server needs a policy or a pre-tool hook, because otherwise the model could change the machine
 * with nobody able to say no. Throws CONFIG_INVALID naming the offending field.
 */
export function validateConversationConfig(config: ConversationConfig): ResolvedConversationConfig {
  const result = conversationConfigSchema.safeParse(config);
  if (!result.success) {
    const details = result.error.issues.map((issue) => `${issue.path.map(String).join(".") || "(config)"}: ${issue.message}`);
    throw new HarnessError("CONFIG_INVALID", `invalid conversation config: ${details.join("; ")}`, { cause: result.error });
  }
  const resolved = result.data;
  const gated = resolved.policies.length > 0 || resolved.hooks.preTool !== undefined;
  if (!gated) {
    const builtins = resolved.builtinTools ?? DEFAULT_BUILTIN_TOOLS;
    const writeCapable = builtins.filter((name) => WRITE_CAPABLE_BUILTIN_TOOLS.includes(name));
    if (writeCapable.length > 0) {
      throw new HarnessError(
        "CONFIG_INVALID",
        `invalid conversation config: builtinTools: ${writeCapable.join(", ")} can change the machine; add policies or a hooks.preTool to gate them`,
      );
    }
    if (resolved.mcpServers.length > 0) {
      throw new HarnessError(
        "CONFIG_INVALID",
        "invalid conversation config: mcpServers: MCP tools run unchecked; add policies or a hooks.preTool to gate them",
      );
    }
  }
  return resolved;
}
