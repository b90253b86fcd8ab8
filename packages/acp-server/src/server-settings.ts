import { BUILTIN_TOOL_NAMES, type BuiltinToolName } from "@ag-ui-antigravity/harness";
import { z } from "zod/v4";
import { SESSION_MODE_IDS, type SessionModeId } from "./permissions/session-modes.js";

export { DEFAULT_ACP_BUILTIN_TOOLS } from "./default-builtin-tools.js";

/** What every session of one ACP server is configured with. */
export interface AcpServerSettings {
  /** Text model; `emulator:<scenario>` runs the emulator's scripted model. */
  model: string;
  /** True when the emulator stands in for `localharness` (no API key, or asked for). */
  emulator: boolean;
  /** The builtin tools every session gets. */
  builtinTools: BuiltinToolName[];
  /** The mode a new session starts in (`session/set_mode` changes it per session). */
  defaultMode: SessionModeId;
  /** Sessions holding a harness conversation at once; `session/new` beyond it is refused. */
  maxSessions: number;
  /** A session with no prompt running for this long closes its conversation (a later prompt reopens it). */
  idleTimeoutMs: number;
  /** Per-turn timeout in ms (time spent waiting for the user does not count). */
  turnTimeoutMs: number;
  /** How long a permission request or a question may wait for the user before it counts as refused. */
  permissionTimeoutMs: number;
  /**
   * Where sessions are kept: their records (for `session/load`) and the harness's conversations.
   * Undefined: a temporary directory removed at exit, so sessions cannot be loaded by a later process.
   */
  stateDirectory: string | undefined;
  /** Appended to the harness's system instructions of every session. */
  systemInstructions: string | undefined;
}


const absolutePath = z.string().refine((path) => path.startsWith("/"), "must be an absolute path");

const acpServerSettingsSchema = z
  .object({
    model: z.string().min(1),
    emulator: z.boolean(),
    builtinTools: z.array(z.enum(BUILTIN_TOOL_NAMES)),
    defaultMode: z.enum(SESSION_MODE_IDS),
    maxSessions: z.number().int().min(1).max(10_000),
    idleTimeoutMs: z.number().int().min(1_000),
    turnTimeoutMs: z.number().int().min(1_000),
    permissionTimeoutMs: z.number().int().min(1_000),
    stateDirectory: absolutePath.optional(),
    systemInstructions: z.string().min(1).optional(),
  })
  .strict();

/** Validates settings; throws a TypeError naming every field at fault. */
export function validateAcpServerSettings(settings: AcpServerSettings): AcpServerSettings {
  const defined = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
  const parsed = acpServerSettingsSchema.safeParse(defined);
  if (!parsed.success) {
    throw new TypeError(`invalid settings: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ")}`);
  }
  return settings;
}
