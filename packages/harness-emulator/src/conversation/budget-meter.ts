import type { BudgetConfigView } from "./config-view.js";
import { TurnTermination } from "./turn-termination.js";
import type { UsageMeter } from "./usage-meter.js";

/** The StopReason names (0.1.11) a budget ends a trajectory with. */
export const budgetStopReasons = {
  modelCalls: "STOP_REASON_MAX_MODEL_CALLS_EXCEEDED",
  toolCalls: "STOP_REASON_MAX_TOOL_CALLS_EXCEEDED",
  inputTokens: "STOP_REASON_MAX_INPUT_TOKENS_EXCEEDED",
  outputTokens: "STOP_REASON_MAX_OUTPUT_TOKENS_EXCEEDED",
  totalTokens: "STOP_REASON_MAX_TOTAL_TOKENS_EXCEEDED",
} as const;

/**
 * Thrown when a budget ran out: the trajectory ends early, its idle carrying the stop reason and no
 * error (a designed stop; the Python SDK reports it as the turn's stop reason).
 */
export class BudgetExhausted extends TurnTermination {
  constructor(stopReason: string) {
    super("", { stopReason });
    this.name = "BudgetExhausted";
  }
}

/**
 * One conversation's `budgetConfig` (0.1.11) against what it has spent this session. Model and
 * tool calls count from the session's start; tokens count the conversation's whole life
 * (LIFETIME, the default) or only this session's (FORWARD_LOOKING, 0.1.16). A limit of 0 or none
 * means unlimited. Each check runs before the call it would pay for, so the call that would pass
 * the limit is never made.
 */
export class BudgetMeter {
  readonly #budget: BudgetConfigView | undefined;
  readonly #usage: UsageMeter;
  #modelCalls = 0;
  #toolCalls = 0;

  constructor(options: { budget: BudgetConfigView | undefined; usage: UsageMeter }) {
    this.#budget = options.budget;
    this.#usage = options.usage;
  }

  /** Before the model is called again: throws BudgetExhausted when a call or token limit is reached. */
  beforeModelCall(): void {
    const budget = this.#budget;
    if (budget === undefined) return;
    if (reached(this.#modelCalls, budget.maxModelCalls)) throw new BudgetExhausted(budgetStopReasons.modelCalls);
    const spent = this.#tokensSpent(budget.forwardLooking);
    if (reached(spent.input, budget.maxInputTokens)) throw new BudgetExhausted(budgetStopReasons.inputTokens);
    if (reached(spent.output, budget.maxOutputTokens)) throw new BudgetExhausted(budgetStopReasons.outputTokens);
    if (reached(spent.input + spent.output, budget.maxTotalTokens)) throw new BudgetExhausted(budgetStopReasons.totalTokens);
    this.#modelCalls += 1;
  }

  /** Before a tool runs: throws BudgetExhausted when the tool call limit is reached. */
  beforeToolCall(): void {
    if (reached(this.#toolCalls, this.#budget?.maxToolCalls)) throw new BudgetExhausted(budgetStopReasons.toolCalls);
    this.#toolCalls += 1;
  }

  #tokensSpent(forwardLooking: boolean): { input: number; output: number } {
    const now = this.#usage.totals();
    const start = forwardLooking ? this.#usage.sessionStart : { prompt: 0, candidates: 0, thoughts: 0 };
    return { input: now.prompt - start.prompt, output: now.candidates + now.thoughts - start.candidates - start.thoughts };
  }
}

function reached(spent: number, limit: number | undefined): boolean {
  return limit !== undefined && limit > 0 && spent >= limit;
}
