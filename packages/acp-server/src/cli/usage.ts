import { DEFAULT_ACP_BUILTIN_TOOLS } from "../default-builtin-tools.js";
import { SESSION_MODE_IDS } from "../permissions/session-modes.js";

// Loads nothing but constants: `--help` answers before the SDK, the harness client or zod is loaded.
export const usage = `Usage: antigravity-acp-server [options]

Serves Google Antigravity agents over the Agent Client Protocol on stdin/stdout, for editors such
as Zed. Diagnostics go to stderr.

  --model <name>             text model (env ANTIGRAVITY_ACP_MODEL; default gemini-3.6-flash, or
                             emulator:demo when GEMINI_API_KEY is not set)
  --emulator                 run the emulator instead of localharness (implied without GEMINI_API_KEY)
  --mode <mode>              approval mode new sessions start in: ${SESSION_MODE_IDS.join(" | ")}
                             (env ANTIGRAVITY_ACP_MODE; default ask)
  --builtin-tools <list>     comma-separated builtin tools (env ANTIGRAVITY_ACP_BUILTIN_TOOLS; default
                             ${DEFAULT_ACP_BUILTIN_TOOLS.join(",")})
  --max-sessions <n>         sessions open at once (env ANTIGRAVITY_ACP_MAX_SESSIONS; default 16)
  --idle-timeout <s>         a session idle this long closes its conversation; the next prompt
                             reopens it (env ANTIGRAVITY_ACP_IDLE_TIMEOUT; default 900)
  --turn-timeout <s>         per-turn timeout, time spent waiting on you aside
                             (env ANTIGRAVITY_ACP_TURN_TIMEOUT; default 1800)
  --permission-timeout <s>   how long a permission request or question waits before it counts as
                             refused (env ANTIGRAVITY_ACP_PERMISSION_TIMEOUT; default 1800)
  --state-dir <dir>          where sessions are kept for session/load (env ANTIGRAVITY_ACP_STATE_DIR;
                             default $XDG_STATE_HOME/antigravity-acp-server or
                             ~/.local/state/antigravity-acp-server)
  --ephemeral                keep nothing: a temporary state directory, removed at exit
                             (session/load is then not offered)
  --instructions <text>      appended to the agent's system instructions (env ANTIGRAVITY_ACP_INSTRUCTIONS)
  --harness <path>           the localharness binary (env ANTIGRAVITY_HARNESS_PATH)
  --version                  print the version
  --help                     this text
`;
