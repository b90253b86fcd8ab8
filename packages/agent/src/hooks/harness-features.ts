import { checkConversationConfig, HarnessError, resolveHarnessVersion, validateConversationConfig, type ConversationConfig, type ConversationHooks } from "@ag-ui-antigravity/harness";
import type { AntigravityAgentOptions } from "../agent-options.js";
import { AgentError } from "../errors/agent-error.js";
import { DEFAULT_MAX_CONTINUATIONS, DEFAULT_MAX_PENDING_SCHEDULES, DEFAULT_MAX_SCHEDULE_DELAY_MS, type ObserverSettings } from "./observer-hooks.js";

/** Builtins whose calls the agent reads through the tool hooks (their steps say too little). */
const OBSERVED_BUILTINS = new Set(["manage_task", "schedule", "start_subagent"]);

/** A stand-in for a hook the agent will set, so a check sees the hook without running anything. */
const standIn = (): undefined => undefined;

/**
 * The agent's configuration as the harness's release sees it. Construction refuses at once what no
 * release accepts (an invalid field; the safety gate: a write-capable builtin or an MCP server with
 * no policy, `hooks.preTool` or `toolApproval`). Whether the release has every option the agent
 * uses (`budget` needs 0.1.11, `onStop` 0.1.16, ...) is checked against the release known at
 * construction (the `harnessVersion` option, ANTIGRAVITY_HARNESS_VERSION, the emulator's profile,
 * else the newest), and again against the one the binary turns out to be; a refusal refuses every
 * run with CONFIG_INVALID naming the option and the first release that has it.
 */
export class HarnessFeatures {
  readonly #options: AntigravityAgentOptions;
  readonly #checkConfig: ConversationConfig;
  #version: string;
  readonly #constructionCheck: Promise<AgentError | undefined>;
  #observers: Promise<ObserverSettings> | undefined;

  constructor(options: AntigravityAgentOptions, baseConfig: ConversationConfig, report: (refusal: AgentError) => void) {
    this.#options = options;
    this.#checkConfig = { ...baseConfig, hooks: hooksToCheck(options, baseConfig.hooks ?? {}) };
    try {
      validateConversationConfig(this.#checkConfig);
    } catch (error) {
      throw configRefusal(error);
    }
    this.#version = versionAtConstruction(options);
    this.#constructionCheck = this.#refusalFor(this.#version).then((refusal) => {
      if (refusal !== undefined) report(refusal);
      return refusal;
    });
  }

  /** The harness release the agent's configuration was checked against. */
  get version(): string {
    return this.#version;
  }

  /** Resolves when the construction-time release accepts the configuration; rejects with its CONFIG_INVALID. */
  async checked(): Promise<void> {
    const refusal = await this.#constructionCheck;
    if (refusal !== undefined) throw refusal;
  }

  /**
   * What the agent adds to every conversation's hooks, for the release the harness binary turns out
   * to be (checked again when that differs from the one known at construction). Computed once.
   */
  observers(binaryPath: string | undefined): Promise<ObserverSettings> {
    this.#observers ??= this.#settle(binaryPath);
    return this.#observers;
  }

  async #settle(binaryPath: string | undefined): Promise<ObserverSettings> {
    await this.checked();
    if (binaryPath !== undefined) {
      const resolved = resolveHarnessVersion({ explicit: this.#options.harnessVersion, env: this.#options.env, binaryPath }).version;
      if (resolved !== this.#version) {
        const refusal = await this.#refusalFor(resolved);
        if (refusal !== undefined) throw refusal;
        this.#version = resolved;
      }
    }
    const options = this.#options;
    const builtins = options.builtinTools ?? [];
    const userStop = options.hooks?.stop;
    const agentStop = options.onStop;
    const userCompaction = options.hooks?.onCompaction;
    const agentCompaction = options.onCompaction;
    return {
      onStop:
        agentStop !== undefined ? (args) => agentStop(args) : userStop === undefined ? undefined : (_args, harnessArgs) => userStop(harnessArgs),
      maxContinuations: options.maxContinuations ?? DEFAULT_MAX_CONTINUATIONS,
      onCompaction:
        agentCompaction === undefined && userCompaction === undefined
          ? undefined
          : async (args, harnessArgs) => {
              await userCompaction?.(harnessArgs);
              await agentCompaction?.(args);
            },
      // The summary reaches the client only from a release that has the hook (0.1.14+).
      compactionHook: (await this.#refusalFor(this.#version, { builtinTools: [], hooks: { onCompaction: standIn } })) === undefined,
      observeTools: builtins.some((name) => OBSERVED_BUILTINS.has(name)) || (options.subagents ?? []).length > 0,
      maxPendingSchedules: options.scheduleLimits?.maxPending ?? DEFAULT_MAX_PENDING_SCHEDULES,
      maxScheduleDelayMs: options.scheduleLimits?.maxDelayMs ?? DEFAULT_MAX_SCHEDULE_DELAY_MS,
      now: Date.now,
    };
  }

  /** What the release would refuse of the agent's configuration (or of `config`), as the agent's CONFIG_INVALID. */
  async #refusalFor(version: string, config: ConversationConfig = this.#checkConfig): Promise<AgentError | undefined> {
    try {
      await checkConversationConfig(config, version);
      return undefined;
    } catch (error) {
      return configRefusal(error);
    }
  }
}

/**
 * The hooks a conversation of the agent will have, for the checks: the host's own, the STOP and
 * compaction hooks its options ask for, and a pre-tool hook when `toolApproval` gates every call.
 */
function hooksToCheck(options: AntigravityAgentOptions, hooks: NonNullable<ConversationConfig["hooks"]>): ConversationHooks {
  return {
    ...hooks,
    ...(options.onStop === undefined ? {} : { stop: standIn }),
    ...(options.onCompaction === undefined ? {} : { onCompaction: standIn }),
    ...(options.toolApproval === undefined || options.toolApproval === false ? {} : { preTool: standIn }),
  };
}

/** The release known before the binary is: the option, ANTIGRAVITY_HARNESS_VERSION, the emulator's profile, else the newest. */
function versionAtConstruction(options: AntigravityAgentOptions): string {
  const harness = options.harness ?? "discover";
  // Stand-in names: a script is the emulator (its profile decides); anything else has no wheel beside it yet.
  const binaryPath = typeof harness === "object" ? harness.path : harness === "emulator" ? "localharness-emulator.js" : "(not found yet)";
  try {
    return resolveHarnessVersion({ explicit: options.harnessVersion, env: options.env, binaryPath }).version;
  } catch (error) {
    throw new AgentError("CONFIG_INVALID", `Invalid agent option harnessVersion: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

function configRefusal(error: unknown): AgentError {
  if (AgentError.isInstance(error)) return error;
  const detail = error instanceof Error ? error.message.replace(/^invalid conversation config: /, "") : String(error);
  const hint = HarnessError.isInstance(error) && /add policies or a hooks\.preTool/.test(detail) ? " (or toolApproval)" : "";
  return new AgentError("CONFIG_INVALID", `Invalid agent configuration: ${detail}${hint}`, { cause: error });
}
