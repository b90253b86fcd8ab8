import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { BUILTIN_TOOL_NAMES, type BuiltinToolName } from "@ag-ui-antigravity/harness";
import { isSessionModeId, SESSION_MODE_IDS } from "../permissions/session-modes.js";
import { DEFAULT_ACP_BUILTIN_TOOLS } from "../default-builtin-tools.js";
import { validateAcpServerSettings, type AcpServerSettings } from "../server-settings.js";

/** What the command line asked for. */
export interface CliCommand {
  kind: "serve" | "help" | "version";
  settings: AcpServerSettings;
  /** An explicit harness binary (`--harness` / ANTIGRAVITY_HARNESS_PATH); absent: discovery, or the emulator. */
  harnessPath: string | undefined;
}


/** The default state directory, after the XDG base directory convention; undefined without a home. */
function defaultStateDirectory(env: Record<string, string | undefined>): string | undefined {
  const stateHome = env["XDG_STATE_HOME"] ?? (env["HOME"] === undefined || env["HOME"] === "" ? undefined : join(env["HOME"], ".local", "state"));
  return stateHome === undefined ? undefined : join(stateHome, "antigravity-acp-server");
}

/** Parses argv and the environment into a validated command; throws a TypeError with the reason. */
export function parseCli(argv: readonly string[], env: Record<string, string | undefined>, cwd: string): CliCommand {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      model: { type: "string" },
      emulator: { type: "boolean" },
      mode: { type: "string" },
      "builtin-tools": { type: "string" },
      "max-sessions": { type: "string" },
      "idle-timeout": { type: "string" },
      "turn-timeout": { type: "string" },
      "permission-timeout": { type: "string" },
      "state-dir": { type: "string" },
      ephemeral: { type: "boolean" },
      instructions: { type: "string" },
      harness: { type: "string" },
      help: { type: "boolean" },
      version: { type: "boolean" },
    },
  } as const);
  const hasKey = (env["GEMINI_API_KEY"] ?? "") !== "";
  const model = values.model ?? env["ANTIGRAVITY_ACP_MODEL"] ?? (hasKey ? "gemini-3.6-flash" : "emulator:demo");
  const emulator = values.emulator === true || !hasKey || model.startsWith("emulator:");
  const builtinList = splitList(values["builtin-tools"] ?? env["ANTIGRAVITY_ACP_BUILTIN_TOOLS"]) ?? [...DEFAULT_ACP_BUILTIN_TOOLS];
  const unknownTools = builtinList.filter((tool) => !(BUILTIN_TOOL_NAMES as readonly string[]).includes(tool));
  if (unknownTools.length > 0) throw new TypeError(`unknown builtin tools: ${unknownTools.join(", ")} (known: ${BUILTIN_TOOL_NAMES.join(", ")})`);
  const mode = values.mode ?? env["ANTIGRAVITY_ACP_MODE"] ?? "ask";
  if (!isSessionModeId(mode)) throw new TypeError(`--mode must be one of ${SESSION_MODE_IDS.join(", ")}, not ${JSON.stringify(mode)}`);
  const stateDirectory = values.ephemeral === true ? undefined : (values["state-dir"] ?? env["ANTIGRAVITY_ACP_STATE_DIR"] ?? defaultStateDirectory(env));
  const instructions = values.instructions ?? env["ANTIGRAVITY_ACP_INSTRUCTIONS"];
  const settings = validateAcpServerSettings({
    model: emulator && !model.startsWith("emulator:") ? "emulator:demo" : model,
    emulator,
    builtinTools: builtinList as BuiltinToolName[],
    defaultMode: mode,
    maxSessions: wholeNumber("--max-sessions", values["max-sessions"] ?? env["ANTIGRAVITY_ACP_MAX_SESSIONS"], 16),
    idleTimeoutMs: seconds("--idle-timeout", values["idle-timeout"] ?? env["ANTIGRAVITY_ACP_IDLE_TIMEOUT"], 900),
    turnTimeoutMs: seconds("--turn-timeout", values["turn-timeout"] ?? env["ANTIGRAVITY_ACP_TURN_TIMEOUT"], 1800),
    permissionTimeoutMs: seconds("--permission-timeout", values["permission-timeout"] ?? env["ANTIGRAVITY_ACP_PERMISSION_TIMEOUT"], 1800),
    stateDirectory: stateDirectory === undefined ? undefined : resolve(cwd, stateDirectory),
    systemInstructions: instructions === undefined || instructions === "" ? undefined : instructions,
  });
  return { kind: values.help === true ? "help" : values.version === true ? "version" : "serve", settings, harnessPath: values.harness ?? env["ANTIGRAVITY_HARNESS_PATH"] };
}

function splitList(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return value.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "");
}

function wholeNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new TypeError(`${name} must be a whole number, not ${JSON.stringify(value)}`);
  return Number(value);
}

/** Seconds (decimals allowed) as milliseconds. */
function seconds(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback * 1000;
  if (!/^\d+(\.\d+)?$/.test(value)) throw new TypeError(`${name} must be a number of seconds, not ${JSON.stringify(value)}`);
  return Math.round(Number(value) * 1000);
}
