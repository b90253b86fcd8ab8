import { HarnessDialect } from "../protocol/dialect.js";
import { buildHarnessConfig } from "./build-harness-config.js";
import type { ConversationConfig } from "./conversation-config.js";
import { checkHarnessConfig, validateConversationConfig } from "./validate-config.js";

/**
 * Everything `openConversation` would refuse about a config before connecting, for a harness of
 * `harnessVersion`: invalid fields, the safety gate, and options that release lacks (CONFIG_INVALID
 * naming the option and the first release that has it). Lets a host refuse a bad configuration when
 * it is given, not at the first turn.
 *
 * @example
 * await checkConversationConfig({ budget: { maxToolCalls: 5 } }, "0.1.10"); // throws CONFIG_INVALID: budget needs harness 0.1.11 or newer
 */
export async function checkConversationConfig(config: ConversationConfig, harnessVersion: string): Promise<void> {
  const resolved = validateConversationConfig(config);
  const dialect = new HarnessDialect(harnessVersion);
  await checkHarnessConfig(buildHarnessConfig(resolved, { apiKey: undefined, dialect }), dialect);
}
