import { earlierUserMessages, formatRecap, newestUserMessage } from "../scenario/recap.js";
import { findMentionedTool } from "../scenario/rule-matcher.js";
import type { TemplateVariables } from "../scenario/template.js";
import type { UserInput } from "../wire/input-messages.js";
import type { StepUpdate } from "../wire/output-messages.js";
import type { TurnContext } from "./turn-context.js";

/** What started the turn. */
export interface TurnInput {
  text: string;
  parts: NonNullable<UserInput["parts"]>;
  trigger: boolean;
  /** The harness started this turn itself, as the schedule tool asked earlier. */
  scheduled?: boolean | undefined;
}

/** One trajectory being driven by actions: the main agent or a subagent. */
export interface TrajectoryRun {
  trajectoryId: string;
  isMain: boolean;
  /** The trajectory that started this one (a subagent's parent); undefined for the main agent. */
  parentTrajectoryId: string | undefined;
  /** How deeply nested: 0 for the main agent, 1 for its subagents, and so on. */
  depth: number;
  /** Subagent config name, to look up its tool toggles. */
  subagentName: string | undefined;
  /** The model step still streaming (thinking emitted, text may follow). */
  openStep: StepUpdate | undefined;
  /** Cumulative text of the last completed answer step. */
  lastText: string;
  finished: boolean;
}

/** The identity and direction every step of a call carries. */
export type StepBase = Pick<StepUpdate, "cascadeId" | "trajectoryId" | "stepIndex" | "source" | "target" | "parentTrajectoryId">;

/** A step of a call before its state is decided (what a denial or a failure then settles). */
export type UnsettledStep = Omit<StepUpdate, "state"> & Pick<StepUpdate, "cascadeId" | "trajectoryId" | "stepIndex" | "source">;

/** A fresh trajectory run: the conversation's main one (the cascade itself) or a subagent's. */
export function trajectoryRun(trajectoryId: string, options: { isMain: boolean; subagentName?: string | undefined; parent?: TrajectoryRun | undefined }): TrajectoryRun {
  return {
    trajectoryId,
    isMain: options.isMain,
    parentTrajectoryId: options.parent?.trajectoryId,
    depth: options.parent === undefined ? 0 : options.parent.depth + 1,
    subagentName: options.subagentName,
    openStep: undefined,
    lastText: "",
    finished: false,
  };
}

/** How a trajectory ended, beyond its state: a failure, or an early stop (a budget, the quota). */
export interface TrajectoryEnding {
  error?: string | undefined;
  stopReason?: string | undefined;
  errorCode?: string | undefined;
}

/**
 * One turn of the scripted model: its input, its signal (aborted by a halt or by the conversation
 * closing), the template variables its texts render with, and the step plumbing every kind of
 * action shares. The actions themselves live beside it, one concern per file.
 */
export class ScriptedTurn {
  readonly context: TurnContext;
  readonly input: TurnInput;
  readonly signal: AbortSignal;
  readonly variables: TemplateVariables;
  /**
   * What the user asks for now: the input, or the newest user message of a transcript a client
   * sent to rebuild a lost conversation. The scripted model reads its request here, not the recap.
   */
  readonly request: string;

  constructor(context: TurnContext, input: TurnInput, signal: AbortSignal) {
    this.context = context;
    this.input = input;
    this.signal = signal;
    this.request = newestUserMessage(input.text);
    const workspace = context.config.workspaces[0] ?? "";
    this.variables = {
      userText: input.text,
      lastToolResult: context.memory.lastToolResult,
      answer: "",
      workspace,
      toolNames: context.config.customTools.map((tool) => tool.name).join(", "),
      cascadeId: context.cascadeId,
      modelApiKey: context.config.modelApiKey,
      mentionedTool: findMentionedTool(this.request, context.config) ?? "",
      mentionedMcpTool: "",
      mentionedMcpServer: "",
      mentionedSkill: "",
      continueReason: "",
    };
    // Read when a text uses it, after the turn's own input is in the history; most turns never do.
    Object.defineProperty(this.variables, "earlierUserMessages", {
      enumerable: true,
      get: () => formatRecap(earlierUserMessages(context.recorder.history(), context.cascadeId)),
    });
  }

  /**
   * A trajectory's state, with what the played release says beside it: a subagent's parent and
   * depth (0.1.11), an early stop's reason (0.1.11), a failure's code (0.1.20).
   */
  sendRunState(run: TrajectoryRun, state: string, ending: TrajectoryEnding = {}): void {
    const profile = this.context.profile;
    const update: Record<string, unknown> = { trajectoryId: run.trajectoryId, state };
    if (ending.error !== undefined) update["error"] = ending.error;
    if (ending.stopReason !== undefined && profile.has("budgets")) update["stopReason"] = ending.stopReason;
    if (run.parentTrajectoryId !== undefined && profile.has("subagentLinks")) {
      update["parentTrajectoryId"] = run.parentTrajectoryId;
      update["depth"] = run.depth;
    }
    if (ending.error !== undefined && ending.error !== "" && profile.has("errorCodes")) update["errorCode"] = ending.errorCode ?? "UNKNOWN";
    this.context.channel.send({ trajectoryStateUpdate: update });
  }

  baseStep(run: TrajectoryRun, stepIndex: number): Pick<StepUpdate, "cascadeId" | "trajectoryId" | "stepIndex" | "parentTrajectoryId"> {
    const step: Pick<StepUpdate, "cascadeId" | "trajectoryId" | "stepIndex" | "parentTrajectoryId"> = { cascadeId: this.context.cascadeId, trajectoryId: run.trajectoryId, stepIndex };
    // A subagent's steps name the trajectory that started it (0.1.11).
    if (run.parentTrajectoryId !== undefined && this.context.profile.has("subagentLinks")) step["parentTrajectoryId"] = run.parentTrajectoryId;
    return step;
  }

  /** A new step of a call the model makes on `run`, from the model to the environment. */
  toolStepBase(run: TrajectoryRun): StepBase {
    const stepIndex = this.context.recorder.allocate(run.trajectoryId);
    return { ...this.baseStep(run, stepIndex), source: "SOURCE_MODEL", target: "TARGET_ENVIRONMENT" };
  }

  /** What the model reads next (`{{lastToolResult}}`), kept for the conversation's later turns too. */
  setToolResult(result: string): void {
    this.context.memory.lastToolResult = result;
    this.variables["lastToolResult"] = result;
  }

  /** Publishes a new step of `run` (the next index of its trajectory) with these fields. */
  publishNewStep(run: TrajectoryRun, fields: Pick<StepUpdate, "state" | "source"> & Omit<Partial<StepUpdate>, "cascadeId" | "trajectoryId" | "stepIndex">): void {
    const stepIndex = this.context.recorder.allocate(run.trajectoryId);
    this.context.recorder.publish({ ...this.baseStep(run, stepIndex), ...fields });
  }

  /** A model that calls a tool it does not have: the harness reports an error step and the model carries on. */
  modelMistake(run: TrajectoryRun, message: string): void {
    this.publishNewStep(run, { state: "STATE_ERROR", source: "SOURCE_MODEL", target: "TARGET_ENVIRONMENT", errorMessage: message });
    this.setToolResult(`Error: ${message}`);
  }

  /** Whether a built-in tool is on for this trajectory (a subagent's own toggles first). */
  builtinEnabledFor(run: TrajectoryRun, wireName: string): boolean {
    const config = this.context.config;
    if (run.subagentName !== undefined) {
      const subagent = (config.config.customSubagents ?? []).find((agent) => agent.name === run.subagentName);
      if (subagent?.harnessSideTools !== undefined) return config.builtinEnabled(wireName, subagent.harnessSideTools);
    }
    return config.builtinEnabled(wireName);
  }

  /** Waits for a reply to a waiting step, re-sending the step on the re-broadcast interval meanwhile. */
  async waitWithRebroadcast<T>(key: string, step: StepUpdate): Promise<T> {
    const context = this.context;
    const interval = context.knobs.rebroadcastMs;
    const timer = interval > 0 ? setInterval(() => context.recorder.rebroadcast(step), interval) : undefined;
    try {
      return await context.pending.wait<T>(key, { signal: this.signal });
    } finally {
      if (timer !== undefined) clearInterval(timer);
    }
  }

  /** Publishes a waiting confirmation step and resolves with the client's decision. */
  async confirm(step: StepUpdate): Promise<boolean> {
    this.context.recorder.publish(step);
    const reply = await this.waitWithRebroadcast<{ accepted?: boolean }>(`confirm:${step.trajectoryId}:${step.stepIndex}`, step);
    return reply.accepted === true;
  }

  /**
   * The step of a call the client denied. What the real harness sends then is not known
   * (docs/protocol.md, "Assumptions and how we hedge them"); the knob plays each guess.
   */
  publishDenied(step: UnsettledStep, reason: string): void {
    const shape = this.context.knobs.deniedStep;
    if (shape === "none") return;
    if (shape === "done") this.context.recorder.publish({ ...step, state: "STATE_DONE" });
    else this.context.recorder.publish({ ...step, state: "STATE_ERROR", errorMessage: reason });
  }

  /** A terminal step; the real harness re-delivers those, so clients must de-duplicate them. */
  publishTerminal(step: StepUpdate): void {
    this.context.recorder.publish(step);
    if (this.context.knobs.rebroadcastMs > 0) this.context.recorder.rebroadcast(step);
  }

  sendUsageUpdate(): void {
    const context = this.context;
    if (!context.profile.has("usageUpdates")) return;
    context.channel.send({ usageUpdate: { agents: context.usage.agents(), total: context.usage.total() } });
  }
}
