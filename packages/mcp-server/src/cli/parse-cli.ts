import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { BUILTIN_TOOL_NAMES, defaultModelFor, NEWEST_KNOWN_HARNESS_VERSION, type BuiltinToolName } from "@ag-ui-antigravity/harness";
import { DEFAULT_SESSION_BUILTIN_TOOLS, validateSettings, type ApprovalPolicy, type McpServerSettings } from "../server-options.js";

/** What the command line asked for. */
export interface CliCommand {
  kind: "serve" | "help" | "version";
  settings: McpServerSettings;
  transport: { type: "stdio" } | { type: "http"; host: string; port: number; clientIdleTimeoutMs: number; authTokens: string[]; allowedOrigins: string[] };
  /** An explicit harness binary (`--harness` / ANTIGRAVITY_HARNESS_PATH); absent: discovery, or the emulator. */
  harnessPath: string | undefined;
}

export const usage = `Usage: antigravity-mcp-server [options]

Serves Google Antigravity agent sessions as MCP tools (run_turn, list_sessions, close_session).

  --http [port]          streamable HTTP on /mcp instead of stdio (default port 0 = any free
                         port; the URL is printed on stderr); --port <n> works too
  --host <address>       HTTP bind address (default 127.0.0.1)
  --model <name>         text model (env ANTIGRAVITY_MCP_MODEL; default the harness release's own (gemini-3.8-flash), or
                         emulator:demo when GEMINI_API_KEY is not set)
  --emulator             run the emulator instead of localharness (implied without GEMINI_API_KEY)
  --workspace <dir>      workspace root, repeatable (env ANTIGRAVITY_MCP_WORKSPACE, comma-separated;
                         default the current directory)
  --builtin-tools <list> comma-separated builtin tools (env ANTIGRAVITY_MCP_BUILTIN_TOOLS; default
                         ${DEFAULT_SESSION_BUILTIN_TOOLS.join(",")})
  --approval <policy>    ask | allow | deny for create_file, edit_file, run_command
                         (env ANTIGRAVITY_MCP_APPROVAL; default ask)
  --max-sessions <n>     open sessions at once (env ANTIGRAVITY_MCP_MAX_SESSIONS; default 32); past it
                         the session idle longest is closed
  --session-idle-timeout <s>  close a session after this long without a turn (env
                         ANTIGRAVITY_MCP_SESSION_IDLE_TIMEOUT; default 1800)
  --client-idle-timeout <s>   with --http: close a client's MCP session after this long with no
                         request or stream open (env ANTIGRAVITY_MCP_CLIENT_IDLE_TIMEOUT; default 600)
  --turn-timeout <s>     per-turn timeout in seconds (env ANTIGRAVITY_MCP_TURN_TIMEOUT; default 600)
  --storage-dir <dir>    where conversations are kept (env ANTIGRAVITY_MCP_STORAGE_DIR)
  --auth-token <token>   with --http: require Authorization: Bearer <token> (16+ characters),
                         repeatable (env ANTIGRAVITY_MCP_AUTH_TOKENS, comma-separated); the
                         sessions opened with a token belong to it
  --allowed-origin <o>   with --http: a browser origin that may call the server besides its own,
                         repeatable (env ANTIGRAVITY_MCP_ALLOWED_ORIGINS, comma-separated)
  --share-sessions       every client sees and uses every session (env
                         ANTIGRAVITY_MCP_SHARE_SESSIONS=1); default: a session is its client's
  --harness <path>       the localharness binary (env ANTIGRAVITY_HARNESS_PATH)
  --version              print the version
  --help                 this text
`;

/** Parses argv and the environment into a validated command; throws a TypeError with the reason. */
export function parseCli(argv: readonly string[], env: Record<string, string | undefined>, cwd: string): CliCommand {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      http: { type: "boolean" },
      port: { type: "string" },
      host: { type: "string" },
      model: { type: "string" },
      emulator: { type: "boolean" },
      workspace: { type: "string", multiple: true },
      "builtin-tools": { type: "string" },
      approval: { type: "string" },
      "max-sessions": { type: "string" },
      "turn-timeout": { type: "string" },
      "session-idle-timeout": { type: "string" },
      "client-idle-timeout": { type: "string" },
      "storage-dir": { type: "string" },
      "auth-token": { type: "string", multiple: true },
      "allowed-origin": { type: "string", multiple: true },
      "share-sessions": { type: "boolean" },
      harness: { type: "string" },
      help: { type: "boolean" },
      version: { type: "boolean" },
    },
  } as const);
  const hasKey = (env["GEMINI_API_KEY"] ?? "") !== "";
  const model = values.model ?? env["ANTIGRAVITY_MCP_MODEL"] ?? (hasKey ? defaultModelFor(NEWEST_KNOWN_HARNESS_VERSION) : "emulator:demo");
  const emulator = values.emulator === true || !hasKey || model.startsWith("emulator:");
  const workspaces = (values.workspace ?? splitList(env["ANTIGRAVITY_MCP_WORKSPACE"]) ?? [cwd]).map((path) => resolve(cwd, path));
  const builtinList = splitList(values["builtin-tools"] ?? env["ANTIGRAVITY_MCP_BUILTIN_TOOLS"]) ?? [...DEFAULT_SESSION_BUILTIN_TOOLS];
  const unknownTools = builtinList.filter((tool) => !(BUILTIN_TOOL_NAMES as readonly string[]).includes(tool));
  if (unknownTools.length > 0) throw new TypeError(`unknown builtin tools: ${unknownTools.join(", ")} (known: ${BUILTIN_TOOL_NAMES.join(", ")})`);
  const approval = values.approval ?? env["ANTIGRAVITY_MCP_APPROVAL"] ?? "ask";
  if (approval !== "ask" && approval !== "allow" && approval !== "deny") throw new TypeError(`--approval must be ask, allow or deny, not ${JSON.stringify(approval)}`);
  const storageDirectory = values["storage-dir"] ?? env["ANTIGRAVITY_MCP_STORAGE_DIR"];
  const settings = validateSettings({
    model: emulator && !model.startsWith("emulator:") ? "emulator:demo" : model,
    emulator,
    workspaces,
    builtinTools: builtinList as BuiltinToolName[],
    approval: approval as ApprovalPolicy,
    maxSessions: integer("--max-sessions", values["max-sessions"] ?? env["ANTIGRAVITY_MCP_MAX_SESSIONS"], 32),
    turnTimeoutMs: integer("--turn-timeout", values["turn-timeout"] ?? env["ANTIGRAVITY_MCP_TURN_TIMEOUT"], 600) * 1000,
    sessionIdleTimeoutMs: positive("--session-idle-timeout", values["session-idle-timeout"] ?? env["ANTIGRAVITY_MCP_SESSION_IDLE_TIMEOUT"], 1_800) * 1000,
    storageDirectory: storageDirectory === undefined ? undefined : resolve(cwd, storageDirectory),
    shareSessions: values["share-sessions"] === true || /^(1|true|yes)$/i.test(env["ANTIGRAVITY_MCP_SHARE_SESSIONS"] ?? ""),
  });
  const transport: CliCommand["transport"] =
    values.http === true || values.port !== undefined
      ? {
          type: "http",
          host: values.host ?? "127.0.0.1",
          port: integer("--port", values.port, 0),
          clientIdleTimeoutMs: positive("--client-idle-timeout", values["client-idle-timeout"] ?? env["ANTIGRAVITY_MCP_CLIENT_IDLE_TIMEOUT"], 600) * 1000,
          authTokens: authTokens(values["auth-token"] ?? splitList(env["ANTIGRAVITY_MCP_AUTH_TOKENS"]) ?? []),
          allowedOrigins: origins(values["allowed-origin"] ?? splitList(env["ANTIGRAVITY_MCP_ALLOWED_ORIGINS"]) ?? []),
        }
      : { type: "stdio" };
  return { kind: values.help === true ? "help" : values.version === true ? "version" : "serve", settings, transport, harnessPath: values.harness ?? env["ANTIGRAVITY_HARNESS_PATH"] };
}

/** `--http 8080` is accepted as `--http --port 8080`. */
export function normalizeArgv(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? "";
    out.push(argument);
    const next = argv[index + 1];
    if (argument === "--http" && next !== undefined && /^\d+$/.test(next)) {
      out.push("--port", next);
      index += 1;
    }
  }
  return out;
}

function splitList(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  return value.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "");
}

/** Tokens long enough not to be guessed; the refusal never repeats one. */
function authTokens(tokens: string[]): string[] {
  for (const [index, token] of tokens.entries()) {
    if (token.length < 16) throw new TypeError(`--auth-token ${index + 1} must be at least 16 characters`);
  }
  return tokens;
}

/** Browser origins (`https://app.example`: scheme, host and port, no path). */
function origins(values: string[]): string[] {
  for (const value of values) {
    let origin: string | undefined;
    try {
      origin = new URL(value).origin;
    } catch {
      origin = undefined;
    }
    if (origin !== value) throw new TypeError(`--allowed-origin ${JSON.stringify(value)} is not an origin such as https://app.example (scheme, host, port; no path)`);
  }
  return values;
}

/** A whole number of seconds, at least 1. */
function positive(name: string, value: string | undefined, fallback: number): number {
  const seconds = integer(name, value, fallback);
  if (seconds < 1) throw new TypeError(`${name} must be at least 1 (seconds)`);
  return seconds;
}

function integer(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new TypeError(`${name} must be a whole number, not ${JSON.stringify(value)}`);
  return Number(value);
}
