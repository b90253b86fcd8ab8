import type { StepToolCall } from "@ag-ui-antigravity/harness";
import { subagentNameOf } from "./step-helpers.js";
import type { ResolvedOptions } from "./translator-options.js";
import type { Scope, SubagentInvocation, TurnMemory } from "./turn-memory.js";

/**
 * Which subagent invocation a call or a trajectory belongs to. The harness says which trajectory
 * started a subagent (`parentTrajectoryId`, 0.1.11+) but never which of that trajectory's calls:
 * a trajectory is linked to a call only when exactly one call of its parent waits for one
 * (docs/protocol.md, "Assumptions and how we hedge them").
 */
export class SubagentLinks {
  readonly #turn: TurnMemory;
  readonly #options: Pick<ResolvedOptions, "ids" | "onUnmatchedSubagent">;

  constructor(turn: TurnMemory, options: Pick<ResolvedOptions, "ids" | "onUnmatchedSubagent">) {
    this.#turn = turn;
    this.#options = options;
  }

  /**
   * The invocation a new subagent trajectory belongs to. The harness does not link a trajectory to
   * the call that spawned it, so the oldest call still waiting for its trajectory gets it; a
   * trajectory with no such call is announced on its own.
   */
  ofTrajectory(trajectoryId: string, parentTrajectoryId: string | undefined): SubagentInvocation {
    // From harness 0.1.11 a subagent names the trajectory that started it: only that trajectory's calls may be its call.
    const waiting = this.#turn.invocations.filter(
      (invocation) =>
        invocation.trajectoryId === undefined &&
        !invocation.finished &&
        !invocation.announcedByTrajectory &&
        (parentTrajectoryId === undefined || invocation.callTrajectoryId === undefined || invocation.callTrajectoryId === parentTrajectoryId),
    );
    const [only] = waiting;
    if (only !== undefined && waiting.length === 1 && only.unmatched !== true) {
      only.trajectoryId = trajectoryId;
      return only;
    }
    // Several calls wait (subagents run in parallel) and nothing on the wire says which started this
    // trajectory (docs/protocol.md, "Assumptions and how we hedge them"): no guess, which could show
    // one subagent's answer as another's. The calls settle from their own steps; this trajectory is
    // announced on its own, and the host is told.
    const ambiguous = waiting.length > 1 || only?.unmatched === true;
    if (ambiguous) {
      for (const candidate of waiting) candidate.unmatched = true;
      this.#options.onUnmatchedSubagent?.({
        trajectoryId,
        candidateToolCallIds: waiting.flatMap((candidate) => (candidate.parentToolCallId === undefined ? [] : [candidate.parentToolCallId])),
      });
    }
    const subagentRunId = this.#options.ids();
    // Its parent is the subagent whose trajectory started it, when the harness says which (0.1.11+).
    const parent = parentTrajectoryId === undefined ? undefined : this.#turn.scopes.get(parentTrajectoryId)?.invocation;
    const invocation: SubagentInvocation = {
      subagentRunId,
      name: "subagent",
      stepName: this.uniqueStepName(`subagent:${trajectoryId}`),
      trajectoryId,
      announcedByTrajectory: true,
      finished: false,
      depth: (parent?.depth ?? 0) + 1,
      ...(parentTrajectoryId === undefined ? {} : { callTrajectoryId: parentTrajectoryId }),
      ...(parent === undefined ? {} : { parentSubagentRunId: parent.subagentRunId }),
      ...(ambiguous ? { unmatched: true } : {}),
    };
    this.#turn.invocations.push(invocation);
    return invocation;
  }

  ofCall(tool: StepToolCall, scope: Scope, toolCallId: string | undefined, stepKey: string): SubagentInvocation {
    // A subagent trajectory seen before the call that spawned it is that call's subagent (of this
    // call's trajectory, when the subagent named its parent).
    const orphan = this.#turn.invocations.find(
      (invocation) =>
        invocation.announcedByTrajectory &&
        invocation.parentToolCallId === undefined &&
        !invocation.finished &&
        invocation.unmatched !== true &&
        (invocation.callTrajectoryId === undefined || invocation.callTrajectoryId === scope.trajectoryId),
    );
    // The step's own arguments, else what the pre-tool hook said (the harness's step carries none).
    const name = subagentNameOf(tool.arguments) ?? this.#turn.subagentNames.get(stepKey);
    if (orphan !== undefined) {
      if (toolCallId !== undefined) orphan.parentToolCallId = toolCallId;
      return orphan;
    }
    const subagentRunId = this.#options.ids();
    const invocation: SubagentInvocation = {
      subagentRunId,
      name: name ?? "subagent",
      stepName: this.uniqueStepName(name ?? `subagent:${subagentRunId}`),
      announcedByTrajectory: false,
      finished: false,
      callTrajectoryId: scope.trajectoryId,
      depth: (scope.invocation?.depth ?? 0) + 1,
    };
    if (toolCallId !== undefined) invocation.parentToolCallId = toolCallId;
    if (scope.invocation !== undefined) invocation.parentSubagentRunId = scope.invocation.subagentRunId;
    this.#turn.invocations.push(invocation);
    return invocation;
  }

  uniqueStepName(name: string): string {
    const taken = new Set(this.#turn.invocations.filter((invocation) => !invocation.finished).map((invocation) => invocation.stepName));
    if (!taken.has(name)) return name;
    let suffix = 2;
    while (taken.has(`${name} #${suffix}`)) suffix += 1;
    return `${name} #${suffix}`;
  }
}
