import { BUILTIN_TOOL_NAMES, type BuiltinToolName } from "@ag-ui-antigravity/harness";
import { z } from "zod/v4";

/** How calls of write-capable builtins (`create_file`, `edit_file`, `run_command`) are decided. */
export type ApprovalPolicy = "ask" | "allow" | "deny";

/** What every session of one server is configured with. */
export interface McpServerSettings {
  /** Text model; `emulator:<scenario>` runs the emulator's scripted model. */
  model: string;
  /** True when the emulator stands in for `localharness` (no API key, or asked for). */
  emulator: boolean;
  /** Absolute workspace roots the builtin file tools may touch. */
  workspaces: string[];
  /** The harness builtin tools every session gets (the CLI's default: `DEFAULT_SESSION_BUILTIN_TOOLS`); `approval` governs the write-capable ones. */
  builtinTools: BuiltinToolName[];
  /**
   * What a call of a write-capable builtin gets: `ask` asks the MCP client running the turn
   * (elicitation; denied when that client cannot be asked), `allow` runs it, `deny` refuses it.
   */
  approval: ApprovalPolicy;
  /** Sessions open at once across every MCP client; past it the session idle longest is closed, and only when every one runs a turn is a new one refused. */
  maxSessions: number;
  /** How long a session without a turn is kept before it is closed. Default 30 minutes. */
  sessionIdleTimeoutMs?: number;
  /** Per-turn timeout in ms (time spent waiting for an elicitation answer does not count). */
  turnTimeoutMs: number;
  /** Where harness processes keep conversations; a temporary directory per process when absent. */
  storageDirectory: string | undefined;
  /**
   * Every MCP client sees, continues and closes every session (`--share-sessions`). Default false:
   * a session belongs to the client that opened it (or to its `--auth-token`), and other clients
   * neither list it nor reach it by id.
   */
  shareSessions?: boolean | undefined;
}

/** Default `sessionIdleTimeoutMs`: 30 minutes. */
export const DEFAULT_SESSION_IDLE_TIMEOUT_MS = 30 * 60_000;

/** The builtin tools a session gets by default: looking, asking, never touching. */
export const DEFAULT_SESSION_BUILTIN_TOOLS: readonly BuiltinToolName[] = ["list_directory", "search_directory", "find_file", "view_file", "ask_question", "finish"];

export const mcpServerSettingsSchema = z
  .object({
    model: z.string().min(1),
    emulator: z.boolean(),
    workspaces: z.array(z.string().refine((path) => path.startsWith("/"), "workspaces are absolute paths")).min(1),
    builtinTools: z.array(z.enum(BUILTIN_TOOL_NAMES)),
    approval: z.enum(["ask", "allow", "deny"]),
    maxSessions: z.number().int().min(1).max(10_000),
    sessionIdleTimeoutMs: z.number().int().min(100).optional(),
    turnTimeoutMs: z.number().int().min(1_000),
    storageDirectory: z.string().min(1).optional(),
    shareSessions: z.boolean().optional(),
  })
  .strict();

/** Validates settings; throws a TypeError naming every field at fault. */
export function validateSettings(settings: McpServerSettings): McpServerSettings {
  // Fields left undefined are absent (exactOptionalPropertyTypes callers, JavaScript callers alike).
  const given = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
  const parsed = mcpServerSettingsSchema.safeParse(given);
  if (!parsed.success) {
    throw new TypeError(`invalid settings: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ")}`);
  }
  return settings;
}
