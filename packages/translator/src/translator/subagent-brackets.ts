import type { AGUIEvent, SubagentStartedEvent } from "@ag-ui/core";
import { EventType } from "@ag-ui/core";
import type { MessageBlocks } from "./message-blocks.js";
import type { ResolvedOptions } from "./translator-options.js";
import type { Scope, SubagentInvocation, TurnMemory } from "./turn-memory.js";

/**
 * The brackets around a subagent's events in the current run: SUBAGENT_STARTED / SUBAGENT_FINISHED
 * (or SUBAGENT_ERROR), or STEP_STARTED / STEP_FINISHED for older clients (`subagentEvents: "step"`).
 * It owns which subagents are announced in this run and which finished in it, since the client's
 * verifier forgets both at RUN_STARTED: a subagent that runs across runs is announced again in
 * each, and a run that ends with it still running suspends it. Which invocation a call or a
 * trajectory belongs to is SubagentLinks' business; this only brackets them.
 */
export class SubagentBrackets {
  readonly #turn: TurnMemory;
  readonly #blocks: MessageBlocks;
  readonly #options: Pick<ResolvedOptions, "subagentEvents" | "subagentDescriptions">;
  /** Subagents announced in this run and not yet finished, in announcement order. */
  readonly #active = new Set<SubagentInvocation>();
  /** Subagents that finished in this run: their id cannot be announced again before the next run. */
  readonly #finished = new Set<SubagentInvocation>();

  constructor(turn: TurnMemory, blocks: MessageBlocks, options: Pick<ResolvedOptions, "subagentEvents" | "subagentDescriptions">) {
    this.#turn = turn;
    this.#blocks = blocks;
    this.#options = options;
  }

  /** The `subagentRunId` of the scope's events, announcing its subagent in this run first if needed. */
  attribution(scope: Scope, events: AGUIEvent[]): string | undefined {
    const invocation = scope.invocation;
    if (invocation === undefined) return undefined;
    if (!invocation.finished) this.announce(invocation, events);
    // Older clients get no attribution: the step bracket is their only grouping.
    return this.#options.subagentEvents === "subagent" ? invocation.subagentRunId : undefined;
  }

  /** Opens the subagent's bracket, unless it is open in this run or finished in it. */
  announce(invocation: SubagentInvocation, events: AGUIEvent[]): void {
    if (this.#active.has(invocation) || this.#finished.has(invocation)) return;
    if (this.#options.subagentEvents === "step") {
      this.#active.add(invocation);
      events.push({ type: EventType.STEP_STARTED, stepName: invocation.stepName });
      return;
    }
    const parent = invocation.parentSubagentRunId === undefined ? undefined : this.#turn.invocations.find((candidate) => candidate.subagentRunId === invocation.parentSubagentRunId);
    // A nested subagent names its parent, which therefore has to be announced in this run too.
    if (parent !== undefined && !parent.finished) this.announce(parent, events);
    this.#active.add(invocation);
    // AG-UI has no field for the nesting depth: it rides in the event's metadata.
    const started: SubagentStartedEvent = { type: EventType.SUBAGENT_STARTED, subagentRunId: invocation.subagentRunId, name: invocation.name, metadata: { antigravity: { depth: invocation.depth } } };
    const description = this.#options.subagentDescriptions.get(invocation.name);
    if (description !== undefined) started.description = description;
    if (invocation.parentToolCallId !== undefined) started.parentToolCallId = invocation.parentToolCallId;
    if (invocation.parentMessageId !== undefined) started.parentMessageId = invocation.parentMessageId;
    if (parent !== undefined && (this.#active.has(parent) || this.#finished.has(parent))) {
      started.parentSubagentRunId = parent.subagentRunId;
    }
    events.push(started);
  }

  /**
   * Closes the subagent's bracket for good, after whatever its trajectory has open: SUBAGENT_ERROR
   * when it failed, else SUBAGENT_FINISHED with its answer (STEP_FINISHED in step mode).
   */
  finish(invocation: SubagentInvocation, errorMessage: string | undefined, events: AGUIEvent[]): void {
    if (invocation.finished) return;
    const scope = invocation.trajectoryId === undefined ? undefined : this.#turn.scopes.get(invocation.trajectoryId);
    if (scope !== undefined) {
      this.#blocks.closeScope(scope, events);
    }
    // The verifier accepts SUBAGENT_FINISHED only for a subagent announced in this run.
    this.announce(invocation, events);
    invocation.finished = true;
    this.#active.delete(invocation);
    this.#finished.add(invocation);
    if (this.#options.subagentEvents === "step") {
      events.push({ type: EventType.STEP_FINISHED, stepName: invocation.stepName });
    } else if (errorMessage !== undefined) {
      const message = errorMessage.trim() === "" ? `The subagent "${invocation.name}" failed.` : errorMessage;
      events.push({ type: EventType.SUBAGENT_ERROR, subagentRunId: invocation.subagentRunId, message });
    } else if (invocation.answer !== undefined) {
      events.push({ type: EventType.SUBAGENT_FINISHED, subagentRunId: invocation.subagentRunId, result: invocation.answer });
    } else {
      events.push({ type: EventType.SUBAGENT_FINISHED, subagentRunId: invocation.subagentRunId });
    }
  }

  /**
   * The run boundary: closes every subagent still running, innermost (latest announced) first,
   * with a `suspended` outcome (STEP_FINISHED in step mode); the next run announces it again.
   */
  suspendAll(events: AGUIEvent[]): void {
    const running = this.#active.size === 0 ? [] : [...this.#active].reverse();
    for (const invocation of running) {
      if (this.#options.subagentEvents === "subagent") {
        events.push({ type: EventType.SUBAGENT_FINISHED, subagentRunId: invocation.subagentRunId, outcome: { type: "suspended" } });
      } else {
        events.push({ type: EventType.STEP_FINISHED, stepName: invocation.stepName });
      }
    }
  }

  /**
   * Forgets this run's brackets without events, keeping the collections: a run starts and ends once
   * per request, most often with both empty. Only a non-empty one is cleared, since clearing
   * allocates a new table.
   */
  forget(): void {
    if (this.#active.size > 0) this.#active.clear();
    if (this.#finished.size > 0) this.#finished.clear();
  }
}
