import { randomUUID } from "node:crypto";
import { EventType, type RunErrorEvent } from "@ag-ui/client";
import { HarnessError, type HarnessErrorCode } from "@ag-ui-antigravity/harness";
import { HitlError } from "@ag-ui-antigravity/hitl";
import { PoolError, type PoolErrorCode } from "@ag-ui-antigravity/pool";
import { AgentError } from "../errors/agent-error.js";

/** A RUN_ERROR and what to log about it server-side. */
export interface MappedRunError {
  event: RunErrorEvent;
  /** Included in the event's message, so a user report can be matched to the server log. */
  correlationId: string;
  /** Whether the failure means the session's harness conversation is gone and must be rebuilt. */
  harnessLost: boolean;
}

/** HarnessError codes that mean the conversation (or its process) is gone. */
// TIMEOUT is among them: a turn that did not end on a halt leaves the conversation wedged (G24).
const lostHarnessCodes = new Set([
  "CONNECTION_CLOSED",
  "SPAWN_FAILED",
  "HANDSHAKE_FAILED",
  "INIT_FAILED",
  "PROTOCOL_INVALID_FRAME",
  "PROTOCOL_FRAME_TOO_LARGE",
  "PROTOCOL_INVALID_MESSAGE",
  // A frame the harness could not parse is dropped: whatever waited on it never comes.
  "PROTOCOL_SKEW",
  "TIMEOUT",
]);

/**
 * The one place where local errors become wire errors. Messages are written here for the user and
 * never carry the error's own text when that text may hold stderr, paths, ports or keys; the
 * original is logged with the correlation id.
 */
export function toRunError(error: unknown): MappedRunError {
  const correlationId = randomUUID().slice(0, 8);
  const event = (code: string, message: string): RunErrorEvent => ({
    type: EventType.RUN_ERROR,
    code,
    message: `${message} (ref ${correlationId})`,
  });
  if (AgentError.isInstance(error)) {
    return { event: event(error.code, error.message), correlationId, harnessLost: false };
  }
  if (HitlError.isInstance(error)) {
    // The bridge's messages describe the client's own answer or tools; they hold nothing secret.
    return { event: event(error.code, error.message), correlationId, harnessLost: error.code === "CLOSED" };
  }
  if (PoolError.isInstance(error)) {
    const couldNotServe = "The Antigravity harness pool could not serve the run.";
    // Every pool code, so a code the pool adds needs its message here before this compiles.
    const messages: Record<PoolErrorCode, string> = {
      PROCESS_DIED: "The Antigravity harness process stopped unexpectedly; the next run starts a new one.",
      POOL_CLOSED: "The server is shutting down.",
      SPAWN_BACKOFF: "The Antigravity harness keeps failing to start; retrying after a pause.",
      CAPACITY_EXHAUSTED: "The server has no room for another conversation right now; retry shortly.",
      ACQUIRE_ABORTED: couldNotServe,
      SPAWN_FAILED: couldNotServe,
      OPEN_FAILED: couldNotServe,
      CONFIG_INVALID: couldNotServe,
    };
    // A full pool took nothing from the session: it had no conversation yet.
    return { event: event(error.code, messages[error.code]), correlationId, harnessLost: error.code !== "CAPACITY_EXHAUSTED" };
  }
  if (HarnessError.isInstance(error)) {
    const messages: Partial<Record<HarnessErrorCode, string>> = {
      // Said to the client, so no paths: the server log lists where the agent looked.
      HARNESS_NOT_FOUND:
        "No Antigravity harness (localharness) was found on the server. Install it with `npx antigravity-harness install` (or `pip install google-antigravity`) " +
        'or set ANTIGRAVITY_HARNESS_PATH; to develop without a key, create the agent with harness: "emulator". The server log lists where it looked.',
      SPAWN_FAILED:
        "The Antigravity harness could not be started. If the server is bundled, keep @ag-ui-antigravity/harness-emulator " +
        "external; the server log has the reason.",
      HANDSHAKE_FAILED: "The Antigravity harness started but did not complete its handshake; the server log has the reason.",
      CONFIG_INVALID: "The agent's configuration was refused.",
      CONNECTION_CLOSED: "The connection to the Antigravity harness was lost; the next run rebuilds it.",
      TIMEOUT: "The Antigravity turn took too long and was stopped.",
      CANCELLED: "The run was cancelled.",
      TURN_FAILED: "The model call failed.",
      TURN_BUSY: "A turn is already running on this thread.",
      PROTOCOL_SKEW: "The Antigravity harness runs another protocol version than the server speaks; the server log names the field.",
      QUOTA_EXHAUSTED: "The model quota is exhausted; what the agent said so far stays. Try again in a few minutes.",
    };
    if (error.code === "BUDGET_EXCEEDED") {
      // The stop reason names the limit (STOP_REASON_MAX_TOOL_CALLS_EXCEEDED: "tool calls"); it is the agent's own configuration.
      const limit = budgetLimitOf(error.subject);
      const message = `The agent stopped: its budget${limit === undefined ? "" : ` of ${limit}`} ran out; what it said so far stays.`;
      return { event: event(error.code, message), correlationId, harnessLost: false };
    }
    if (error.code === "MCP_LOAD_FAILED") {
      // The server's name is the agent's own configuration; the reason (paths, stderr) stays in the log.
      const message = `The MCP server "${error.subject ?? ""}" could not be loaded, so the turn could not run.`;
      return { event: event(error.code, message), correlationId, harnessLost: false };
    }
    return {
      event: event(error.code, messages[error.code] ?? "The Antigravity harness failed."),
      correlationId,
      harnessLost: lostHarnessCodes.has(error.code),
    };
  }
  return { event: event("AGENT_ERROR", "The agent failed unexpectedly."), correlationId, harnessLost: false };
}

/** The limit a budget stop reason names, in words (`STOP_REASON_MAX_TOOL_CALLS_EXCEEDED`: `tool calls`). */
function budgetLimitOf(stopReason: string | undefined): string | undefined {
  const match = /^STOP_REASON_MAX_([A-Z_]+)_EXCEEDED$/.exec(stopReason ?? "");
  return match?.[1]?.toLowerCase().replace(/_/g, " ");
}
