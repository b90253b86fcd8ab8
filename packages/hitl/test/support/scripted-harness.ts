import type { NormalizedStep } from "@ag-ui-antigravity/harness";
import type { PreToolHookArgs, PreToolHookResult, QuestionsHookArgs, QuestionsHookResult } from "@ag-ui-antigravity/harness";
import type { HarnessPieces, TurnStarter } from "../../src/index.js";

/** What a scripted model does in one turn. */
export type TurnScript = (turn: ScriptedTurn) => Promise<void>;

/**
 * A stand-in for a harness conversation: each turn runs a script that emits text steps and calls the
 * bridge's custom tools and hooks the way the harness does (pre-tool hook first, then the handler,
 * awaited with no timeout).
 */
export class ScriptedHarness {
  readonly turns: { input: string; preamble: string | undefined }[] = [];
  readonly #scripts: TurnScript[];
  #pieces: HarnessPieces | undefined;

  constructor(scripts: TurnScript[]) {
    this.#scripts = scripts;
  }

  connect(pieces: HarnessPieces): this {
    this.#pieces = pieces;
    return this;
  }

  get pieces(): HarnessPieces {
    if (this.#pieces === undefined) throw new Error("connect() the harness to the bridge's pieces first");
    return this.#pieces;
  }

  readonly startTurn: TurnStarter<string> = (input, context) => {
    const script = this.#scripts.shift();
    if (script === undefined) throw new Error(`no script left for turn input ${JSON.stringify(input)}`);
    this.turns.push({ input, preamble: context.preamble });
    const turn = new ScriptedTurn(this.pieces, context.signal, this.turns.length);
    void script(turn).then(
      () => turn.end(),
      (error: unknown) => turn.fail(error),
    );
    return turn.steps();
  };
}

export class ScriptedTurn {
  readonly #pieces: HarnessPieces;
  readonly signal: AbortSignal;
  readonly #turnNumber: number;
  readonly #buffer: IteratorResult<NormalizedStep>[] = [];
  #failure: { error: unknown } | undefined;
  #waiter: (() => void) | undefined;
  #stepIndex = 0;
  #callCount = 0;

  constructor(pieces: HarnessPieces, signal: AbortSignal, turnNumber: number) {
    this.#pieces = pieces;
    this.signal = signal;
    this.#turnNumber = turnNumber;
  }

  say(text: string): void {
    this.#emit({ ...baseStep(this.#turnNumber, this.#stepIndex++), kind: "text", text, textDelta: text });
  }

  /** Calls a custom tool as the harness would; a denial comes back as `{ denied }`. */
  async callTool(name: string, args: Record<string, unknown>, callId = `call-${this.#turnNumber}-${++this.#callCount}`): Promise<unknown> {
    let effectiveArgs = args;
    const preTool = this.#pieces.hooks.preTool;
    if (preTool !== undefined) {
      const decision: PreToolHookResult = await preTool(preToolArgs(name, args, callId));
      if (decision.decision === "deny") return { denied: decision.reason };
      effectiveArgs = decision.arguments ?? args;
    }
    const tool = this.#pieces.customTools.find((candidate) => candidate.name === name);
    if (tool === undefined) return { error: `Unknown tool: '${name}'` };
    this.#emit({ ...baseStep(this.#turnNumber, this.#stepIndex++), kind: "custom_tool", status: "active", tool: { kind: "custom", name, actionField: "customTool", callId, arguments: effectiveArgs } });
    return tool.handler(effectiveArgs, { callId, toolName: name, conversationId: "conversation", signal: this.signal });
  }

  /** Asks a builtin tool's pre-tool hook, as the harness does for builtins. */
  async approveBuiltin(name: string, args: Record<string, unknown>, callId: string): Promise<PreToolHookResult> {
    const preTool = this.#pieces.hooks.preTool;
    return preTool === undefined ? { decision: "allow" } : preTool(preToolArgs(name, args, callId));
  }

  ask(questions: QuestionsHookArgs["questions"]): Promise<QuestionsHookResult> {
    const onQuestions = this.#pieces.hooks.onQuestions;
    if (onQuestions === undefined) throw new Error("the bridge registered no questions hook");
    const step = { ...baseStep(this.#turnNumber, this.#stepIndex++), kind: "question" as const, status: "waiting" as const };
    return onQuestions({ questions, signal: this.signal, conversationId: "conversation", trajectoryId: step.trajectoryId, stepIndex: step.stepIndex, step });
  }

  end(): void {
    this.#buffer.push({ done: true, value: undefined });
    this.#waiter?.();
  }

  fail(error: unknown): void {
    this.#failure = { error };
    this.#waiter?.();
  }

  async *steps(): AsyncGenerator<NormalizedStep, void, undefined> {
    for (;;) {
      while (this.#buffer.length > 0) {
        const next = this.#buffer.shift() as IteratorResult<NormalizedStep>;
        if (next.done === true) return;
        yield next.value;
      }
      if (this.#failure !== undefined) throw this.#failure.error;
      await new Promise<void>((resolve) => (this.#waiter = resolve));
      this.#waiter = undefined;
    }
  }

  #emit(step: NormalizedStep): void {
    this.#buffer.push({ done: false, value: step });
    this.#waiter?.();
  }
}

function baseStep(turnNumber: number, stepIndex: number): NormalizedStep {
  const trajectoryId = `trajectory-${turnNumber}`;
  return {
    id: `${trajectoryId}:${stepIndex}`,
    cascadeId: "cascade",
    trajectoryId,
    stepIndex,
    kind: "text",
    status: "done",
    source: "model",
    target: "user",
    isMainTrajectory: true,
    text: "",
    textDelta: "",
    thinking: "",
    thinkingDelta: "",
    raw: {} as NormalizedStep["raw"],
  };
}

export function preToolArgs(toolName: string, args: Record<string, unknown>, callId: string): PreToolHookArgs {
  return { toolName, arguments: args, argumentsJson: JSON.stringify(args), callId, conversationId: "conversation", reason: "hook" };
}
