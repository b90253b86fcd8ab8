/** What the translator remembers of one harness step, keyed by (trajectoryId, stepIndex). */
export interface StepRecord {
  /** How much of the step's cumulative text has been emitted. */
  textSeen: number;
  /** How much of the step's cumulative thinking has been emitted. */
  thinkingSeen: number;
  /** The tool call this step made, once started. */
  toolCallId?: string;
  /** The argument keys at the call's first sight: later keys are results, never arguments. */
  argumentKeys?: readonly string[];
  /** The structured output of a `finish` step has been handled. */
  outputHandled: boolean;
  /** The step reached DONE or ERROR and everything it had to say was said: redeliveries are ignored. */
  finished: boolean;
  /** A call of the model's that names no action the client knows (`manage_task`, `schedule`): its text is the call, not an answer. */
  unnamedCall?: boolean;
}

/** What a pre-tool hook said about a call whose step names no action: enough for a tool card. */
export interface NamedCall {
  toolName: string;
  callId?: string;
  arguments: Record<string, unknown>;
}

/** One subagent invocation: one `subagentRunId`, whether it is announced from a call or a trajectory. */
export interface SubagentInvocation {
  subagentRunId: string;
  name: string;
  /** The STEP_STARTED / STEP_FINISHED name in `subagentEvents: "step"` mode. */
  stepName: string;
  parentToolCallId?: string;
  parentMessageId?: string;
  parentSubagentRunId?: string;
  /** The trajectory whose call started it, when known: a subagent's `parentTrajectoryId` names it (harness 0.1.11+). */
  callTrajectoryId?: string;
  /** 1 for a subagent of the main agent, 2 for one of its subagents, ... */
  depth: number;
  /** The subagent's trajectory, once its first step has been seen. */
  trajectoryId?: string;
  /** Its trajectory showed up before any call spawned it; the next call that does is linked to it. */
  announcedByTrajectory: boolean;
  /**
   * It could not be matched (parallel subagents): a call's invocation never gets a trajectory, a
   * trajectory's is never linked to a call.
   */
  unmatched?: boolean;
  /** The subagent's answer: its structured output, else the text of its last finished step. */
  answer?: unknown;
  /** The answer is the subagent's structured output, which later text does not replace. */
  answerIsOutput?: boolean;
  finished: boolean;
}

/** Where a step's events go: the main agent, or one subagent invocation. */
export interface Scope {
  trajectoryId: string;
  invocation?: SubagentInvocation;
  /** The assistant message the scope's tool calls belong to: its latest text message, or a minted id. */
  assistantMessageId?: string;
}

/** A tool call started in this turn, by the harness or by the host. */
export interface CallRecord {
  toolCallId: string;
  toolCallName: string;
  scope: Scope;
  /** False for a hidden built-in call: nothing of it is emitted. */
  shown: boolean;
  /** TOOL_CALL_RESULT was emitted (or, for a hidden call, would have been). */
  settled: boolean;
  /** The harness's own call (built-in, MCP, subagent), started from its step; not a host call. */
  fromHarness?: boolean;
  /** The subagent a `start_subagent` / `invoke_subagent` call spawned. */
  invocation?: SubagentInvocation;
}

/** Everything that lives as long as the turn, across its runs. */
export class TurnMemory {
  readonly steps = new Map<string, StepRecord>();
  readonly scopes = new Map<string, Scope>();
  /** The main agent's scope, shared by the main trajectory's steps and by host calls. */
  mainScope: Scope | undefined = undefined;
  readonly calls = new Map<string, CallRecord>();
  readonly invocations: SubagentInvocation[] = [];
  /** Call steps a pre-tool hook named before (or after) the step showed, by step key. */
  readonly namedCalls = new Map<string, NamedCall>();
  /** Card ids promised for call steps not seen yet (an approval asked about the call first), by step key. */
  readonly boundCallIds = new Map<string, string>();
  /** Subagent names a pre-tool hook gave an `invoke_subagent` call, by its step key. */
  readonly subagentNames = new Map<string, string>();

  /** Forgets the turn, keeping the collections (only a non-empty one is cleared: clearing allocates a new table). */
  clear(): void {
    if (this.steps.size > 0) this.steps.clear();
    if (this.scopes.size > 0) this.scopes.clear();
    this.mainScope = undefined;
    if (this.calls.size > 0) this.calls.clear();
    this.invocations.length = 0;
    if (this.namedCalls.size > 0) this.namedCalls.clear();
    if (this.boundCallIds.size > 0) this.boundCallIds.clear();
    if (this.subagentNames.size > 0) this.subagentNames.clear();
  }
}
