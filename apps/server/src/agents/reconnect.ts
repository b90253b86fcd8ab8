import { AntigravityAgent } from "@ag-ui-antigravity/agent";
import { sharedAgentOptions, type DemoAgentEnvironment } from "./demo-agent-environment.js";

/** How often the harness sends its scheduled reminder into an idle conversation: quick on the emulator, rare with Gemini (each one is a model turn). */
function reminderIntervalMs(environment: DemoAgentEnvironment): number {
  return environment.harness.kind === "emulator" ? 5_000 : 300_000;
}

/**
 * reconnect: a run outlives its page (`reconnect.onDisconnect: "continue"`), so a page reloaded
 * mid-reply connects again and gets the reply whole; and a scheduled trigger (the harness's
 * `triggers`, what the SDK's scheduled-trigger helpers become) starts turns nobody asked for, which
 * reach the open page through its `stayOpen` connect stream.
 */
export function createReconnectAgent(environment: DemoAgentEnvironment): AntigravityAgent {
  return new AntigravityAgent({
    ...sharedAgentOptions(environment, "reconnect", "Replies that survive a reload, and reminders nobody asked for."),
    systemInstructions:
      "You are a concise assistant in a demo of reconnecting pages. When asked for a story, tell a long one. " +
      "Messages marked as automated reminders come from a schedule, not from the user: answer them with a one-line reminder.",
    reconnect: { onDisconnect: "continue" },
    triggers: [{ message: "Scheduled reminder: time to stretch your legs.", intervalMs: reminderIntervalMs(environment) }],
  });
}
