import type { NormalizedStep } from "@ag-ui-antigravity/harness";
import type { ToolIdentity } from "./tool-call-view.js";

/** Steps remembered per session; the oldest are forgotten past this (a finished call needs no id). */
const MAX_REMEMBERED_STEPS = 2_000;
/** How long a hook waits for the step of the call it is about before it names the call itself. */
export const STEP_WAIT_MS = 500;

const keyOf = (tool: ToolIdentity): string => `${tool.serverName ?? ""}/${tool.name}`;

/** A tool call a hook asked about, and whether its `tool_call` update was already sent (its step seen). */
export interface ClaimedCall {
  toolCallId: string;
  /** False when no step had shown the call yet: the caller announces it with a `tool_call` of its own. */
  announced: boolean;
}

/**
 * Which ACP tool call each harness tool step is, and which call a hook (pre-tool, confirmation) is
 * asking about. A step's id is its tool call's id, unless a hook had to name the call before its
 * step arrived: the harness may send a hook request before (or without) the step that shows the
 * call (docs/protocol.md, "Callbacks"); then the step takes the hook's id when it comes.
 */
export class ToolCallBook {
  readonly #idOfStep = new Map<string, string>();
  /** Calls seen as steps, per tool, that no hook has asked about yet, oldest first. */
  readonly #unclaimed = new Map<string, string[]>();
  /** Calls a hook named before their step came, per tool, oldest first. */
  readonly #awaitingStep = new Map<string, string[]>();
  readonly #waiters = new Set<() => void>();
  #fabricated = 0;

  /** Records a tool step (call it for every step, in order, as it arrives); returns its tool call id. */
  observe(step: NormalizedStep): string | undefined {
    const tool = step.tool;
    if (tool === undefined) return undefined;
    const known = this.#idOfStep.get(step.id);
    if (known !== undefined) return known;
    const key = keyOf(tool);
    const named = this.#awaitingStep.get(key)?.shift();
    const toolCallId = named ?? step.id;
    this.#idOfStep.set(step.id, toolCallId);
    if (this.#idOfStep.size > MAX_REMEMBERED_STEPS) {
      const oldest = this.#idOfStep.keys().next().value;
      if (oldest !== undefined) this.#idOfStep.delete(oldest);
    }
    if (named === undefined && step.status !== "done" && step.status !== "error") {
      const list = this.#unclaimed.get(key) ?? [];
      list.push(toolCallId);
      this.#unclaimed.set(key, list);
      for (const wake of [...this.#waiters]) wake();
    }
    return toolCallId;
  }

  /** The tool call id of a step seen before. */
  idOf(stepId: string): string | undefined {
    return this.#idOfStep.get(stepId);
  }

  /** Names the call of a step a hook got directly (a confirmation carries its step). */
  claimStep(step: NormalizedStep): ClaimedCall {
    const seen = this.#idOfStep.get(step.id);
    const toolCallId = seen ?? this.observe(step) ?? step.id;
    if (step.tool !== undefined) {
      const list = this.#unclaimed.get(keyOf(step.tool));
      const index = list?.indexOf(toolCallId) ?? -1;
      if (index >= 0) list?.splice(index, 1);
    }
    return { toolCallId, announced: seen !== undefined };
  }

  /**
   * The call a pre-tool hook is asking about: the oldest step of that tool no hook has claimed,
   * waiting up to `waitMs` for it to arrive; if none comes, a new id the step will take later.
   */
  async claim(tool: ToolIdentity, options: { signal: AbortSignal; waitMs?: number }): Promise<ClaimedCall> {
    const key = keyOf(tool);
    const take = (): string | undefined => this.#unclaimed.get(key)?.shift();
    const deadline = Date.now() + (options.waitMs ?? STEP_WAIT_MS);
    for (;;) {
      const toolCallId = take();
      if (toolCallId !== undefined) return { toolCallId, announced: true };
      const remaining = deadline - Date.now();
      if (remaining <= 0 || options.signal.aborted) break;
      await this.#waitForStep(remaining, options.signal);
    }
    this.#fabricated += 1;
    const named = `hook-${this.#fabricated}`;
    const list = this.#awaitingStep.get(key) ?? [];
    list.push(named);
    this.#awaitingStep.set(key, list);
    return { toolCallId: named, announced: false };
  }

  /** Forgets the calls waiting for hooks or steps: a new turn starts with none. */
  resetTurn(): void {
    this.#unclaimed.clear();
    this.#awaitingStep.clear();
  }

  #waitForStep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        this.#waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener("abort", done, { once: true });
      this.#waiters.add(done);
    });
  }
}
