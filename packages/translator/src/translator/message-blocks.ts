import type { AGUIEvent } from "@ag-ui/core";
import { EventType } from "@ag-ui/core";
import type { IdGenerator } from "../ids/id-generator.js";
import { withAttribution } from "./step-helpers.js";
import type { Scope } from "./turn-memory.js";

/** A text message or reasoning span that is open in the current run. */
export interface OpenBlock {
  stepKey: string;
  messageId: string;
  subagentRunId?: string;
}

/** A step key no step has (every real key holds a NUL separator). */
const RETIRED_STEP_KEY = "retired";

/**
 * The text messages and reasoning spans open in the current run: at most one of each per scope
 * (trajectory), and never both at once in a scope. It owns when a block opens, when a new step's
 * words start a new block instead of continuing one, and that every block ends exactly once. It is
 * apart from the step translator because these rules hold whatever a step is (text, a call, a
 * compaction, a subagent's end); the translator only says which step's words arrived and when a
 * scope's words must end. Nothing here outlives the run: the client's verifier forgets everything at
 * RUN_STARTED, so nothing opened in an earlier run may be continued.
 */
export class MessageBlocks {
  readonly #ids: IdGenerator;
  readonly #text = new Map<string, OpenBlock>();
  readonly #reasoning = new Map<string, OpenBlock>();

  constructor(ids: IdGenerator) {
    this.#ids = ids;
  }

  /** A step's new reasoning: it ends the scope's text, and another step's reasoning span. */
  appendReasoning(scope: Scope, stepKey: string, delta: string, subagentRunId: string | undefined, events: AGUIEvent[]): void {
    this.closeText(scope, events);
    let open = this.#reasoning.get(scope.trajectoryId);
    if (open !== undefined && open.stepKey !== stepKey) {
      this.closeReasoning(scope, events);
      open = undefined;
    }
    if (open === undefined) {
      open = withAttribution({ stepKey, messageId: this.#ids() }, subagentRunId);
      this.#reasoning.set(scope.trajectoryId, open);
      events.push(withAttribution({ type: EventType.REASONING_START, messageId: open.messageId }, subagentRunId));
      events.push(withAttribution({ type: EventType.REASONING_MESSAGE_START, messageId: open.messageId, role: "reasoning" }, subagentRunId));
    }
    events.push(withAttribution({ type: EventType.REASONING_MESSAGE_CONTENT, messageId: open.messageId, delta }, subagentRunId));
  }

  /**
   * A step's new text: it ends the scope's reasoning, and another step's text message. A message it
   * opens becomes the scope's assistant message, which the scope's next tool calls belong to.
   */
  appendText(scope: Scope, stepKey: string, delta: string, subagentRunId: string | undefined, events: AGUIEvent[]): void {
    this.closeReasoning(scope, events);
    let open = this.#text.get(scope.trajectoryId);
    if (open !== undefined && open.stepKey !== stepKey) {
      this.closeText(scope, events);
      open = undefined;
    }
    if (open === undefined) {
      open = withAttribution({ stepKey, messageId: this.#ids() }, subagentRunId);
      this.#text.set(scope.trajectoryId, open);
      scope.assistantMessageId = open.messageId;
      events.push(withAttribution({ type: EventType.TEXT_MESSAGE_START, messageId: open.messageId, role: "assistant" }, subagentRunId));
    }
    events.push(withAttribution({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: open.messageId, delta }, subagentRunId));
  }

  /** Ends the blocks this step opened in its scope, reasoning first; another step's stay open. */
  closeStep(stepKey: string, scope: Scope, events: AGUIEvent[]): void {
    if (this.#reasoning.get(scope.trajectoryId)?.stepKey === stepKey) this.closeReasoning(scope, events);
    if (this.#text.get(scope.trajectoryId)?.stepKey === stepKey) this.closeText(scope, events);
  }

  /** Ends whatever the scope has open, reasoning first. */
  closeScope(scope: Scope, events: AGUIEvent[]): void {
    this.closeReasoning(scope, events);
    this.closeText(scope, events);
  }

  closeReasoning(scope: Scope, events: AGUIEvent[]): void {
    const open = this.#reasoning.get(scope.trajectoryId);
    if (open === undefined) return;
    this.#reasoning.delete(scope.trajectoryId);
    pushReasoningEnd(open, events);
  }

  closeText(scope: Scope, events: AGUIEvent[]): void {
    const open = this.#text.get(scope.trajectoryId);
    if (open === undefined) return;
    this.#text.delete(scope.trajectoryId);
    pushTextEnd(open, events);
  }

  /** The run boundary: ends every open block, all reasoning spans before all text messages, and forgets them. */
  closeAll(events: AGUIEvent[]): void {
    for (const block of this.#reasoning.values()) pushReasoningEnd(block, events);
    for (const block of this.#text.values()) pushTextEnd(block, events);
    this.forget();
  }

  /** The turn ended: a block left open belongs to it, so a new step reusing its index must not continue it. */
  retireTurn(): void {
    for (const block of this.#text.values()) block.stepKey = RETIRED_STEP_KEY;
    for (const block of this.#reasoning.values()) block.stepKey = RETIRED_STEP_KEY;
  }

  /**
   * Forgets every block without events (a new run may not continue what an earlier one left open).
   * A run starts and ends once per request, most often with nothing open; only a non-empty table is
   * cleared, since clearing allocates a new one.
   */
  forget(): void {
    if (this.#text.size > 0) this.#text.clear();
    if (this.#reasoning.size > 0) this.#reasoning.clear();
  }
}

function pushReasoningEnd(block: OpenBlock, events: AGUIEvent[]): void {
  events.push(withAttribution({ type: EventType.REASONING_MESSAGE_END, messageId: block.messageId }, block.subagentRunId));
  events.push(withAttribution({ type: EventType.REASONING_END, messageId: block.messageId }, block.subagentRunId));
}

function pushTextEnd(block: OpenBlock, events: AGUIEvent[]): void {
  events.push(withAttribution({ type: EventType.TEXT_MESSAGE_END, messageId: block.messageId }, block.subagentRunId));
}
