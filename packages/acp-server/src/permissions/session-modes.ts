import type { SessionMode } from "@agentclientprotocol/sdk";

/** The ids of the approval modes a session can be in (`session/set_mode`). */
export const SESSION_MODE_IDS = ["ask", "accept-edits", "read-only"] as const;

/** An approval mode: how tool calls that change something are decided. */
export type SessionModeId = (typeof SESSION_MODE_IDS)[number];

/** What a tool call can do, as far as asking the user goes. */
export type ToolClass = "edit" | "execute" | "mcp" | "read";

/** Where a decision is asked for: our pre-tool gate (every call), or a confirmation the harness itself asks for. */
export type DecisionOrigin = "pre-tool" | "confirmation";

/** The modes as ACP describes them to the client. */
export const SESSION_MODES: readonly SessionMode[] = [
  { id: "ask", name: "Ask every time", description: "File edits, commands and MCP tools ask for permission first." },
  { id: "accept-edits", name: "Auto-approve edits", description: "File edits run without asking; commands and MCP tools still ask." },
  { id: "read-only", name: "Read only", description: "File edits and commands are refused (the agent is told); MCP tools ask." },
];

export function isSessionModeId(value: string): value is SessionModeId {
  return (SESSION_MODE_IDS as readonly string[]).includes(value);
}

/**
 * What a mode decides for a call before anyone is asked. A confirmation the harness asks for on its
 * own is asked of the user even for a read: the harness knows something we do not.
 */
export function modeDecision(mode: SessionModeId, toolClass: ToolClass, origin: DecisionOrigin): "allow" | "deny" | "ask" {
  if (mode === "read-only" && (toolClass === "edit" || toolClass === "execute")) return "deny";
  if (mode === "accept-edits" && toolClass === "edit") return "allow";
  if (toolClass !== "read") return "ask";
  return origin === "confirmation" ? "ask" : "allow";
}
