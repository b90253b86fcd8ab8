import type { AntigravityAgentLogger } from "../agent-options.js";

/** Codes meaning the agent cannot serve any run until someone fixes the setup. */
const setupFailureCodes = new Set(["HARNESS_NOT_FOUND", "SPAWN_FAILED", "HANDSHAKE_FAILED", "SPAWN_BACKOFF", "CONFIG_INVALID"]);

const agentHint =
  'With @ag-ui-antigravity/agent: pass harness: "emulator" to develop without a key, or { path } to name the binary. ' +
  "A bundled server must keep @ag-ui-antigravity/harness-emulator external (see the agent README, Bundling).";

/**
 * Says once, loudly, why the agent cannot run. With a logger it is one `error` line per failure;
 * with none the library would otherwise be silent, so the first such failure goes to
 * `console.warn` (a misconfigured first run is the one moment a developer is watching).
 */
export class StartupFailureWarning {
  #warnedOnConsole = false;

  constructor(private readonly logger: AntigravityAgentLogger | undefined) {}

  /** Logs the failure when it is a setup failure, and says whether it did. */
  report(error: unknown, details: Record<string, unknown>): boolean {
    const code = typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : undefined;
    if (code === undefined || !setupFailureCodes.has(code)) return false;
    // One line: the harness lists the places it searched on separate lines.
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*(- )?/g, "; ");
    const line = `@ag-ui-antigravity/agent cannot start the Antigravity harness (${code}): ${reason} ${agentHint}`;
    if (this.logger !== undefined) {
      this.logger.error?.({ ...details, code, err: error }, line);
      return true;
    }
    if (this.#warnedOnConsole) return true;
    this.#warnedOnConsole = true;
    // eslint-disable-next-line no-console -- no logger was given; see the class comment.
    console.warn(line);
    return true;
  }
}
