import type { IdSource } from "../ids/id-source.js";
import type { EmulatorKnobs } from "../knobs/emulator-knobs.js";
import type { EmulatorLogger } from "../logging/logger.js";
import type { McpToolbelt } from "../mcp/mcp-toolbelt.js";
import type { Scenario } from "../scenario/scenario-schema.js";
import type { WorkspaceGuard } from "../tools/workspace-guard.js";
import type { VersionProfile } from "../version/version-profile.js";
import type { OutputChannel } from "../wire/output-channel.js";
import type { SkillCatalogue } from "../tools/skill-catalogue.js";
import type { BudgetMeter } from "./budget-meter.js";
import type { ConfigView } from "./config-view.js";
import type { PendingReplies } from "./pending-replies.js";
import type { StepRecorder } from "./step-recorder.js";
import type { UsageMeter } from "./usage-meter.js";

/** How a scenario's fault actions reach the process; the binary wires these to the real process. */
export interface ProcessControl {
  /** Ends the process with `code`, for the `process-exit` fault action; the binary calls `process.exit(code)`. */
  exit(code: number): void;
  /** Kills the process abruptly, as a crash would, for the `process-kill` fault action; the binary sends itself SIGKILL. */
  killSelf(): void;
}

/** Everything a turn needs from its conversation. */
export interface TurnContext {
  cascadeId: string;
  scenario: Scenario;
  channel: OutputChannel;
  recorder: StepRecorder;
  pending: PendingReplies;
  config: ConfigView;
  profile: VersionProfile;
  knobs: EmulatorKnobs;
  ids: IdSource;
  logger: EmulatorLogger;
  usage: UsageMeter;
  guard: WorkspaceGuard;
  commandEnv: Record<string, string>;
  /** The conversation's MCP servers, loaded at the start of each turn. */
  mcp: McpToolbelt;
  processControl: ProcessControl;
  /** Aborted when the conversation closes (a turn's own signal is also aborted by a halt). */
  closing: AbortSignal;
  closeSocket(code: number, reason: string): void;
  /** Queues work after the current turn, like a new turn (late results of background tools). */
  enqueueBackground(task: (signal: AbortSignal) => Promise<void>): void;
  /** The conversation's budget (0.1.11) against what it spent. */
  budget: BudgetMeter;
  /** The conversation's skills, read from disk when first asked for. */
  skills: SkillCatalogue;
  /**
   * Starts a turn of the harness's own after `afterMs` (the schedule tool): the timer belongs to
   * the conversation and ends with it.
   */
  scheduleTurn(afterMs: number, prompt: string): void;
  /** Mutable conversation-level memory the scripted model reads. */
  memory: { lastToolResult: string; tokensSinceCompaction: number };
}
