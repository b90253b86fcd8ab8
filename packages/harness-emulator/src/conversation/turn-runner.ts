import { EmulatorError } from "../errors/emulator-error.js";
import { McpLoadFailure } from "../mcp/mcp-toolbelt.js";
import { renderDeep, renderTemplate, type TemplateVariables } from "../scenario/template.js";
import { earlierUserMessages, formatRecap } from "../scenario/recap.js";
import { findMentionedTool, matchRule } from "../scenario/rule-matcher.js";
import { sampleArguments } from "../scenario/schema-sample.js";
import type { ScenarioAction } from "../scenario/scenario-schema.js";
import { builtinActionField, isBuiltinToolName, planBuiltin, type BuiltinPlan } from "../tools/builtin-tools.js";
import type { QuestionResponse, ToolResponse, UserInput } from "../wire/input-messages.js";
import type { StepUpdate } from "../wire/output-messages.js";
import { abortableSleep, yieldToEventLoop } from "./abortable-sleep.js";
import { callHook } from "./hook-caller.js";
import { runMcpCall } from "./mcp-call.js";
import { gateToolCall } from "./tool-gate.js";
import type { TurnContext } from "./turn-context.js";
import { TurnAbandoned, TurnTermination } from "./turn-termination.js";
import { estimateTokens } from "./usage-meter.js";

/** What started the turn. */
export interface TurnInput {
  text: string;
  parts: NonNullable<UserInput["parts"]>;
  trigger: boolean;
}

/** A custom tool call whose result has arrived and must be reported. */
interface CustomToolCompletion {
  base: Pick<StepUpdate, "cascadeId" | "trajectoryId" | "stepIndex" | "source" | "target">;
  toolCall: { id: string; name: string; argumentsJson: string };
  name: string;
  callId: string;
  response: ToolResponse;
}

/** One trajectory being driven by actions: the main agent or a subagent. */
interface TrajectoryRun {
  trajectoryId: string;
  isMain: boolean;
  /** Subagent config name, to look up its tool toggles. */
  subagentName: string | undefined;
  /** The model step still streaming (thinking emitted, text may follow). */
  openStep: StepUpdate | undefined;
  /** Cumulative text of the last completed answer step. */
  lastText: string;
  finished: boolean;
}

type SubagentAction = Extract<ScenarioAction, { type: "subagent-run" }>;

/** A subagent whose call step and trajectory have started. */
interface StartedSubagent {
  action: SubagentAction;
  callId: string;
  /** The identity of its `invokeSubagent` step on the parent trajectory. */
  base: Pick<StepUpdate, "cascadeId" | "trajectoryId" | "stepIndex" | "source" | "target">;
  run: TrajectoryRun;
}

const defaultChoices = ["Option A", "Option B", "Option C"];

function choicesFromText(text: string): string[] | undefined {
  const tail = /(?:between|from|:)\s*(.+)$/i.exec(text)?.[1];
  if (tail === undefined) return undefined;
  const choices = tail
    .split(/,|\bor\b|\band\b|\//i)
    .map((choice) => choice.trim().replace(/[.?!]+$/, ""))
    .filter((choice) => choice !== "");
  return choices.length >= 2 && choices.length <= 8 ? choices : undefined;
}

/** Splits on code points, never inside a surrogate pair: a lone surrogate is invalid in protobuf JSON. */
function chunk(text: string, size: number): string[] {
  const codePoints = Array.from(text);
  const pieces: string[] = [];
  for (let offset = 0; offset < codePoints.length; offset += size) pieces.push(codePoints.slice(offset, offset + size).join(""));
  return pieces;
}

/** Interprets a custom tool reply: either envelope of docs/protocol.md, "Custom tools" (errorMessage, or `{"error": …}` in responseJson). */
function interpretToolResponse(response: ToolResponse): { error: string | undefined; text: string } {
  if (response.errorMessage !== undefined && response.errorMessage !== "") return { error: response.errorMessage, text: response.errorMessage };
  const json = response.responseJson ?? "";
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      const keys = Object.keys(parsed);
      const record = parsed as Record<string, unknown>;
      if (keys.length === 1 && keys[0] === "error") return { error: String(record["error"]), text: String(record["error"]) };
      if (keys.length === 1 && keys[0] === "result") {
        const result = record["result"];
        return { error: undefined, text: typeof result === "string" ? result : JSON.stringify(result) };
      }
    }
  } catch {
    // A non-JSON result is passed to the model verbatim.
  }
  return { error: undefined, text: json };
}

function describeAnswers(response: QuestionResponse, questions: { choices: string[] }[]): string {
  if (response.cancelled === true) return "(cancelled)";
  const answers = response.response?.answers ?? [];
  if (answers.length === 0) return "(unanswered)";
  return answers
    .map((answer, index) => {
      if (answer.unanswered === true || answer.multipleChoiceAnswer === undefined) return "(unanswered)";
      const choices = questions[index]?.choices ?? [];
      const selected = (answer.multipleChoiceAnswer.selectedChoiceIndices ?? []).map((choice) => choices[choice] ?? `#${choice}`);
      const freeform = answer.multipleChoiceAnswer.freeformResponse;
      return [...selected, ...(freeform === undefined || freeform === "" ? [] : [freeform])].join(", ") || "(unanswered)";
    })
    .join("; ");
}

/** Drives one turn of the scripted model, from the pre-turn hook to the terminal trajectory state. */
export class TurnRunner {
  readonly #context: TurnContext;
  readonly #input: TurnInput;
  readonly #signal: AbortSignal;
  readonly #variables: TemplateVariables;

  constructor(context: TurnContext, input: TurnInput, options: { signal: AbortSignal }) {
    this.#context = context;
    this.#input = input;
    this.#signal = options.signal;
    const workspace = context.config.workspaces[0] ?? "";
    this.#variables = {
      userText: input.text,
      lastToolResult: context.memory.lastToolResult,
      answer: "",
      workspace,
      toolNames: context.config.customTools.map((tool) => tool.name).join(", "),
      cascadeId: context.cascadeId,
      modelApiKey: context.config.modelApiKey,
      mentionedTool: findMentionedTool(input.text, context.config) ?? "",
      mentionedMcpTool: "",
      mentionedMcpServer: "",
    };
    // Read when a text uses it, after the turn's own input is in the history; most turns never do.
    Object.defineProperty(this.#variables, "earlierUserMessages", {
      enumerable: true,
      get: () => formatRecap(earlierUserMessages(context.recorder.history(), context.cascadeId)),
    });
  }

  async run(): Promise<void> {
    const context = this.#context;
    const main: TrajectoryRun = { trajectoryId: context.cascadeId, isMain: true, subagentName: undefined, openStep: undefined, lastText: "", finished: false };
    try {
      const preTurn = await callHook(context, {
        type: "LIFECYCLE_HOOK_PRE_TURN",
        argsKey: "preTurnArgs",
        args: { userInput: { parts: this.#input.parts } },
        signal: this.#signal,
      });
      const preTurnDenied = preTurn?.preTurnResult?.decision === "DENY" || preTurn?.preTurnResult?.decision === 2;
      if (preTurnDenied) {
        context.channel.send({
          trajectoryStateUpdate: { trajectoryId: context.cascadeId, state: "STATE_CANCELLED", error: preTurn?.preTurnResult?.reason ?? "" },
        });
        return;
      }
      this.#sendTrajectoryState(context.cascadeId, "STATE_RUNNING");
      this.#echoInput();
      await this.#loadMcpServers();
      this.#compactIfNeeded(main);
      const match = matchRule(context.scenario, {
        text: this.#input.text,
        trigger: this.#input.trigger,
        lastToolResult: context.memory.lastToolResult,
        config: context.config,
        mcpTools: context.mcp.tools,
      });
      if (match?.mentionedTool !== undefined) this.#variables["mentionedTool"] = match.mentionedTool;
      if (match?.mentionedMcpTool !== undefined) {
        this.#variables["mentionedMcpTool"] = match.mentionedMcpTool.name;
        this.#variables["mentionedMcpServer"] = match.mentionedMcpTool.serverName;
      }
      const actions: ScenarioAction[] = match?.rule.actions ?? [{ type: "text-emit", text: "You said: \"{{userText}}\"" }];
      await this.#runActions(main, actions);
      await this.#closeOpenStep(main);
      if (context.config.finishSchema !== undefined && !main.finished) await this.#finish(main, undefined);
      if (context.knobs.idleDelayMs > 0) await abortableSleep(context.knobs.idleDelayMs, { signal: this.#signal });
      this.#sendTrajectoryState(context.cascadeId, "STATE_FULLY_IDLE");
      await callHook(context, { type: "LIFECYCLE_HOOK_POST_TURN", argsKey: "postTurnArgs", args: { responseText: main.lastText }, signal: this.#signal });
    } catch (error) {
      if (this.#signal.aborted) {
        // What the real harness prints when a halt cancels the in-flight model request.
        if (context.channel.open) context.logger.warn(`conversation ${context.cascadeId}: received model response error: context canceled`);
        // A slower harness confirms the halt late (the knob); the conversation's own end cuts it short.
        if (context.knobs.idleDelayMs > 0) await abortableSleep(context.knobs.idleDelayMs, { signal: context.closing }).catch(() => undefined);
        this.#sendTrajectoryState(context.cascadeId, "STATE_FULLY_IDLE");
        return;
      }
      if (error instanceof TurnAbandoned) return;
      if (error instanceof TurnTermination) {
        this.#sendTrajectoryState(context.cascadeId, "STATE_FULLY_IDLE", error.trajectoryError);
        return;
      }
      context.logger.error(`conversation ${context.cascadeId}: turn failed: ${(error as Error).stack ?? String(error)}`);
      this.#sendTrajectoryState(context.cascadeId, "STATE_FULLY_IDLE", "Trajectory execution failed");
    }
  }

  #sendTrajectoryState(trajectoryId: string, state: string, error?: string): void {
    const update: Record<string, unknown> = { trajectoryId, state };
    if (error !== undefined) update["error"] = error;
    this.#context.channel.send({ trajectoryStateUpdate: update });
  }

  #baseStep(run: TrajectoryRun, stepIndex: number): Pick<StepUpdate, "cascadeId" | "trajectoryId" | "stepIndex"> {
    return { cascadeId: this.#context.cascadeId, trajectoryId: run.trajectoryId, stepIndex };
  }

  /** The user's (or trigger's) message as a step of the main trajectory, as it appears in history. */
  #echoInput(): void {
    const context = this.#context;
    const stepIndex = context.recorder.allocate(context.cascadeId);
    context.recorder.publish({
      cascadeId: context.cascadeId,
      trajectoryId: context.cascadeId,
      stepIndex,
      state: "STATE_DONE",
      source: this.#input.trigger ? "SOURCE_SYSTEM" : "SOURCE_USER",
      target: "TARGET_MODEL",
      text: this.#input.text,
    });
    context.memory.tokensSinceCompaction += estimateTokens(this.#input.text) + 64;
  }

  #compactIfNeeded(run: TrajectoryRun): void {
    const context = this.#context;
    if (context.memory.tokensSinceCompaction < context.config.compactionThreshold) return;
    context.memory.tokensSinceCompaction = 0;
    this.#emitCompaction(run, "Context compaction");
  }

  #emitCompaction(run: TrajectoryRun, text: string): void {
    const stepIndex = this.#context.recorder.allocate(run.trajectoryId);
    this.#context.recorder.publish({
      ...this.#baseStep(run, stepIndex),
      state: "STATE_DONE",
      source: "SOURCE_SYSTEM",
      target: "TARGET_USER",
      text,
      compaction: {},
    });
  }

  async #runActions(run: TrajectoryRun, actions: readonly ScenarioAction[]): Promise<void> {
    for (let index = 0; index < actions.length; index += 1) {
      const action = actions[index] as ScenarioAction;
      this.#signal.throwIfAborted();
      if (action.type !== "thinking-emit" && action.type !== "text-emit") await this.#closeOpenStep(run);
      const together = this.#context.knobs.parallelSubagents ? subagentRunAt(actions, index) : [];
      if (together.length > 1) {
        await this.#runSubagentsTogether(run, together);
        index += together.length - 1;
        continue;
      }
      await this.#runAction(run, action);
    }
  }

  async #runAction(run: TrajectoryRun, action: ScenarioAction): Promise<void> {
    const context = this.#context;
    switch (action.type) {
      case "thinking-emit":
        return this.#streamThinking(run, renderTemplate(action.text, this.#variables), action);
      case "text-emit":
        return this.#streamText(run, renderTemplate(action.text, this.#variables), action);
      case "tool-call":
        return this.#callTool(run, action);
      case "mcp-call":
        return this.#callMcp(run, action);
      case "question-ask":
        return this.#askQuestions(run, action);
      case "error-emit": {
        const message = renderTemplate(action.message, this.#variables);
        const stepIndex = context.recorder.allocate(run.trajectoryId);
        context.recorder.publish({
          ...this.#baseStep(run, stepIndex),
          state: "STATE_ERROR",
          source: "SOURCE_SYSTEM",
          error: { errorMessage: message, httpCode: action.httpCode },
        });
        if (action.endTurn !== false) throw new TurnTermination(action.trajectoryError ?? `executor run failed: ${message}`);
        return;
      }
      case "turn-fail":
        throw new TurnTermination(action.error);
      case "subagent-run":
        return this.#runSubagent(run, action);
      case "output-finish":
        return this.#finish(run, action.output);
      case "compaction-emit":
        context.memory.tokensSinceCompaction = 0;
        return this.#emitCompaction(run, action.text ?? "Context compaction");
      case "time-wait":
        return abortableSleep(context.knobs.deterministic ? 0 : action.ms, { signal: this.#signal });
      case "process-exit":
        context.logger.error(`scenario fault: exiting with code ${action.code}`);
        context.processControl.exit(action.code);
        throw new TurnAbandoned("process exit requested");
      case "process-kill":
        context.logger.error("scenario fault: SIGKILL to self");
        context.processControl.killSelf();
        throw new TurnAbandoned("process kill requested");
      case "turn-stall":
        context.logger.warn(`conversation ${context.cascadeId}: scenario fault: stalling this turn forever`);
        await new Promise<never>(() => undefined);
        return;
      case "socket-close":
        context.closeSocket(action.code ?? 1011, action.reason ?? "emulator fault: socket closed by scenario");
        throw new TurnAbandoned("socket closed by scenario");
      case "json-malform":
        context.channel.sendRaw(action.text ?? '{"stepUpdate": {"trajectoryId": ');
        return;
      case "field-unknown":
        if (action.variant === "event") context.channel.send({ brandNewEvent: { k: "v" } });
        else if (action.variant === "enum") context.channel.send({ trajectoryStateUpdate: { trajectoryId: run.trajectoryId, state: "STATE_FROM_THE_FUTURE" } });
        else {
          const stepIndex = context.recorder.allocate(run.trajectoryId);
          context.channel.send({
            stepUpdate: { ...this.#baseStep(run, stepIndex), state: "STATE_DONE", source: "SOURCE_MODEL", futureField: { nested: true } },
          });
        }
        return;
    }
  }

  #openModelStep(run: TrajectoryRun): StepUpdate {
    if (run.openStep !== undefined) return run.openStep;
    const stepIndex = this.#context.recorder.allocate(run.trajectoryId);
    run.openStep = { ...this.#baseStep(run, stepIndex), state: "STATE_ACTIVE", source: "SOURCE_MODEL", target: "TARGET_USER" };
    return run.openStep;
  }

  async #stream(
    run: TrajectoryRun,
    text: string,
    options: { chunkSize?: number | undefined; delayMs?: number | undefined },
    field: "text" | "thinking",
  ): Promise<void> {
    const context = this.#context;
    const step = this.#openModelStep(run);
    const size = options.chunkSize ?? context.knobs.chunkSize;
    const delay = context.knobs.deterministic ? 0 : (options.delayMs ?? context.knobs.tokenDelayMs);
    const deltaField = field === "text" ? "textDelta" : "thinkingDelta";
    let count = 0;
    for (const piece of chunk(text, size)) {
      if (delay > 0) await abortableSleep(delay, { signal: this.#signal });
      else if (++count % 64 === 0) await yieldToEventLoop();
      this.#signal.throwIfAborted();
      await context.channel.drained();
      step[field] = (typeof step[field] === "string" ? step[field] : "") + piece;
      const update: StepUpdate = { ...step, [deltaField]: piece };
      context.recorder.publish(update);
    }
  }

  #streamThinking(run: TrajectoryRun, text: string, options: { chunkSize?: number | undefined; delayMs?: number | undefined }): Promise<void> {
    return this.#stream(run, text, options, "thinking");
  }

  async #streamText(run: TrajectoryRun, text: string, options: { chunkSize?: number | undefined; delayMs?: number | undefined }): Promise<void> {
    await this.#stream(run, text, options, "text");
    await this.#closeOpenStep(run);
  }

  /** Completes the open model step (DONE with cumulative text/thinking) and reports usage. */
  async #closeOpenStep(run: TrajectoryRun): Promise<void> {
    const step = run.openStep;
    if (step === undefined) return;
    run.openStep = undefined;
    const context = this.#context;
    const text = typeof step.text === "string" ? step.text : "";
    const thinking = typeof step.thinking === "string" ? step.thinking : undefined;
    const done: StepUpdate = { ...step, state: "STATE_DONE", text };
    if (thinking !== undefined) done.thinking = thinking;
    context.usage.add(run.trajectoryId, {
      prompt: estimateTokens(this.#input.text) + estimateTokens(context.memory.lastToolResult) + 32,
      candidates: estimateTokens(text),
      thoughts: estimateTokens(thinking ?? ""),
    });
    context.memory.tokensSinceCompaction += estimateTokens(text) + estimateTokens(thinking ?? "");
    context.recorder.publish(done, { usageMetadata: context.usage.total({ serviceTier: context.profile.serviceTier }) });
    if (text !== "") run.lastText = text;
    this.#sendUsageUpdate();
    await Promise.resolve();
  }

  #sendUsageUpdate(): void {
    const context = this.#context;
    if (context.profile.usageTransport !== "usageUpdate") return;
    const options = { serviceTier: context.profile.serviceTier };
    context.channel.send({ usageUpdate: { agents: context.usage.agents(options), total: context.usage.total(options) } });
  }

  /** A model that calls a tool it does not have: the harness reports an error step and the model carries on. */
  #modelMistake(run: TrajectoryRun, message: string): void {
    const stepIndex = this.#context.recorder.allocate(run.trajectoryId);
    this.#context.recorder.publish({
      ...this.#baseStep(run, stepIndex),
      state: "STATE_ERROR",
      source: "SOURCE_MODEL",
      target: "TARGET_ENVIRONMENT",
      errorMessage: message,
    });
    this.#setToolResult(`Error: ${message}`);
  }

  #setToolResult(result: string): void {
    this.#context.memory.lastToolResult = result;
    this.#variables["lastToolResult"] = result;
  }

  /** Waits for a reply to a waiting step, re-sending the step on the re-broadcast interval meanwhile. */
  async #waitWithRebroadcast<T>(key: string, step: StepUpdate): Promise<T> {
    const context = this.#context;
    const interval = context.knobs.rebroadcastMs;
    const timer = interval > 0 ? setInterval(() => context.recorder.rebroadcast(step), interval) : undefined;
    try {
      return await context.pending.wait<T>(key, { signal: this.#signal });
    } finally {
      if (timer !== undefined) clearInterval(timer);
    }
  }

  #builtinEnabledFor(run: TrajectoryRun, wireName: string): boolean {
    const config = this.#context.config;
    if (run.subagentName !== undefined) {
      const subagent = (config.config.customSubagents ?? []).find((agent) => agent.name === run.subagentName);
      if (subagent?.harnessSideTools !== undefined) return config.builtinEnabled(wireName, subagent.harnessSideTools);
    }
    return config.builtinEnabled(wireName);
  }

  async #callTool(run: TrajectoryRun, action: Extract<ScenarioAction, { type: "tool-call" }>): Promise<void> {
    const name = renderTemplate(action.tool, this.#variables);
    if (isBuiltinToolName(name)) {
      if (!this.#builtinEnabledFor(run, name)) {
        this.#modelMistake(run, `Tool "${name}" is not available`);
        return;
      }
      const args =
        action.arguments === undefined || action.arguments === "schema"
          ? { directory_path: this.#variables["workspace"] ?? "" }
          : (renderDeep(action.arguments, this.#variables) as Record<string, unknown>);
      return this.#callBuiltin(run, name, args, action.confirm === true);
    }
    const tool = this.#context.config.customTool(name);
    if (tool === undefined) {
      this.#modelMistake(run, `Tool "${name}" is not available`);
      return;
    }
    const args =
      action.arguments === undefined || action.arguments === "schema"
        ? sampleArguments(tool.parametersJsonSchema, this.#input.text)
        : (renderDeep(action.arguments, this.#variables) as Record<string, unknown>);
    return this.#callCustom(run, name, args, { confirm: action.confirm === true, backgroundAfterMs: action.backgroundAfterMs });
  }

  /** A server that cannot be loaded ends the turn with the harness's `MCP load failed for <name>: …`. */
  async #loadMcpServers(): Promise<void> {
    try {
      await this.#context.mcp.load({ signal: this.#signal });
    } catch (error) {
      if (error instanceof McpLoadFailure) throw new TurnTermination(error.message);
      throw error;
    }
  }

  async #callMcp(run: TrajectoryRun, action: Extract<ScenarioAction, { type: "mcp-call" }>): Promise<void> {
    const name = renderTemplate(action.tool, this.#variables);
    const server = action.server === undefined ? undefined : renderTemplate(action.server, this.#variables);
    const tool = this.#context.mcp.find(name, server);
    if (tool === undefined) {
      this.#modelMistake(run, `Tool "${name}" is not available`);
      return;
    }
    const args =
      action.arguments === undefined || action.arguments === "schema"
        ? sampleArguments(JSON.stringify(tool.inputSchema), this.#input.text)
        : (renderDeep(action.arguments, this.#variables) as Record<string, unknown>);
    const result = await runMcpCall(this.#context, {
      trajectoryId: run.trajectoryId,
      tool,
      args,
      confirm: action.confirm === true,
      signal: this.#signal,
      askConfirmation: (step) => this.#confirm(step),
    });
    this.#setToolResult(result);
  }

  async #confirm(step: StepUpdate): Promise<boolean> {
    this.#context.recorder.publish(step);
    const reply = await this.#waitWithRebroadcast<{ accepted?: boolean }>(`confirm:${step.trajectoryId}:${step.stepIndex}`, step);
    return reply.accepted === true;
  }

  async #reportToolError(options: { toolName: string; error: string; callId: string }): Promise<string> {
    const context = this.#context;
    const withCallId = (args: Record<string, unknown>): Record<string, unknown> => (context.profile.hookCallIds ? { ...args, callId: options.callId } : args);
    const reply = await callHook(context, {
      type: "LIFECYCLE_HOOK_ON_TOOL_ERROR",
      argsKey: "onToolErrorArgs",
      args: withCallId({ toolName: options.toolName, errorMessage: options.error }),
      signal: this.#signal,
    });
    const custom = reply?.onToolErrorResult?.customErrorMessage;
    const visible = custom !== undefined && custom !== "" ? custom : options.error;
    await callHook(context, {
      type: "LIFECYCLE_HOOK_POST_TOOL",
      argsKey: "postToolArgs",
      args: withCallId({ toolName: options.toolName, error: options.error }),
      signal: this.#signal,
    });
    this.#setToolResult(`Error: ${visible}`);
    return visible;
  }

  /**
   * The step of a call the client denied. What the real harness sends then is not known
   * (docs/protocol.md, "Assumptions and how we hedge them"); the knob plays each guess.
   */
  #publishDenied(step: Omit<StepUpdate, "state"> & Pick<StepUpdate, "cascadeId" | "trajectoryId" | "stepIndex" | "source">, reason: string): void {
    const shape = this.#context.knobs.deniedStep;
    if (shape === "none") return;
    if (shape === "done") this.#context.recorder.publish({ ...step, state: "STATE_DONE" });
    else this.#context.recorder.publish({ ...step, state: "STATE_ERROR", errorMessage: reason });
  }

  async #callBuiltin(run: TrajectoryRun, name: Parameters<typeof planBuiltin>[0], args: Record<string, unknown>, confirm: boolean): Promise<void> {
    const context = this.#context;
    const field = builtinActionField[name];
    const stepIndex = context.recorder.allocate(run.trajectoryId);
    const base = { ...this.#baseStep(run, stepIndex), source: "SOURCE_MODEL" as const, target: "TARGET_ENVIRONMENT" as const };
    const callId = context.ids.requestId("call");
    const builtinContext = { guard: context.guard, commandEnv: context.commandEnv };
    let plan: BuiltinPlan;
    try {
      plan = planBuiltin(name, args, builtinContext);
    } catch (error) {
      const message = EmulatorError.isInstance(error) ? error.message : String(error);
      context.recorder.publish({ ...base, state: "STATE_ERROR", errorMessage: message });
      await this.#reportToolError({ toolName: name, error: message, callId });
      return;
    }
    let needsConfirmation = confirm;
    if (!confirm) context.recorder.publish({ ...base, state: "STATE_ACTIVE", [field]: plan.inputs });
    const gate = await gateToolCall(context, { toolName: name, argumentsJson: JSON.stringify(args), callId, signal: this.#signal });
    if (gate.kind === "deny") {
      this.#publishDenied({ ...base, [field]: plan.inputs }, gate.reason);
      this.#setToolResult(`Error: ${gate.reason}`);
      return;
    }
    needsConfirmation ||= gate.confirm;
    if (gate.argumentsJson !== JSON.stringify(args)) {
      try {
        plan = planBuiltin(name, JSON.parse(gate.argumentsJson) as Record<string, unknown>, builtinContext);
      } catch (error) {
        const message = EmulatorError.isInstance(error) ? error.message : `invalid modified arguments: ${String(error)}`;
        context.recorder.publish({ ...base, state: "STATE_ERROR", [field]: plan.inputs, errorMessage: message });
        await this.#reportToolError({ toolName: name, error: message, callId });
        return;
      }
    }
    if (needsConfirmation) {
      const accepted = await this.#confirm({
        ...base,
        state: "STATE_WAITING_FOR_USER",
        text: `Requesting permission to call tool "${name}"`,
        [field]: plan.inputs,
        toolConfirmationRequest: {},
      });
      if (!accepted) {
        this.#publishDenied({ ...base, [field]: plan.inputs }, "Permission denied");
        this.#setToolResult("Error: the user rejected the tool call");
        return;
      }
    }
    let outcome;
    try {
      outcome = await plan.run({ signal: this.#signal });
    } catch (error) {
      if (this.#signal.aborted) throw error;
      const message = EmulatorError.isInstance(error) ? error.message : (error as Error).message;
      context.recorder.publish({ ...base, state: "STATE_ERROR", [field]: plan.inputs, errorMessage: message });
      await this.#reportToolError({ toolName: name, error: message, callId });
      return;
    }
    const done: StepUpdate = { ...base, state: "STATE_DONE", [field]: outcome.action };
    if (outcome.text !== undefined) done.text = outcome.text;
    context.recorder.publish(done);
    // Terminal steps are re-delivered by the real harness; clients must de-duplicate them.
    if (context.knobs.rebroadcastMs > 0) context.recorder.rebroadcast(done);
    const postArgs: Record<string, unknown> = { toolName: name, result: outcome.hookResult, error: "" };
    if (context.profile.hookCallIds) postArgs["callId"] = callId;
    await callHook(context, { type: "LIFECYCLE_HOOK_POST_TOOL", argsKey: "postToolArgs", args: postArgs, signal: this.#signal });
    this.#setToolResult(outcome.modelResult);
  }

  async #callCustom(
    run: TrajectoryRun,
    name: string,
    args: Record<string, unknown>,
    options: { confirm: boolean; backgroundAfterMs: number | undefined },
  ): Promise<void> {
    const context = this.#context;
    const { confirm } = options;
    const callId = context.ids.requestId("call");
    const argumentsJson = JSON.stringify(args);
    const gate = await gateToolCall(context, { toolName: name, argumentsJson, callId, signal: this.#signal });
    if (gate.kind === "allow" && (confirm || gate.confirm)) {
      // The pre-request notice (docs/protocol.md, "Custom tools"): a waiting step with no action field.
      const noticeIndex = context.recorder.allocate(run.trajectoryId);
      const notice: StepUpdate = {
        ...this.#baseStep(run, noticeIndex),
        state: "STATE_WAITING_FOR_USER",
        source: "SOURCE_MODEL",
        target: "TARGET_ENVIRONMENT",
        toolConfirmationRequest: {},
      };
      const accepted = await this.#confirm(notice);
      const { toolConfirmationRequest: _request, ...settled } = notice;
      if (!accepted) {
        this.#publishDenied(settled, "Permission denied");
        this.#setToolResult("Error: the user rejected the tool call");
        return;
      }
      context.recorder.publish({ ...settled, state: "STATE_DONE" });
    }
    const stepIndex = context.recorder.allocate(run.trajectoryId);
    const base = { ...this.#baseStep(run, stepIndex), source: "SOURCE_MODEL" as const, target: "TARGET_ENVIRONMENT" as const };
    const toolCall = { id: callId, name, argumentsJson: gate.kind === "allow" ? gate.argumentsJson : argumentsJson };
    if (gate.kind === "deny") {
      this.#publishDenied({ ...base, customTool: { toolCall } }, gate.reason);
      this.#setToolResult(`Error: ${gate.reason}`);
      return;
    }
    const reply = context.pending.wait<ToolResponse>(`tool:${callId}`, { signal: this.#signal });
    context.recorder.publish({ ...base, state: "STATE_ACTIVE", customTool: { toolCall } });
    context.channel.send({ toolCall });
    const escalateAfter = options.backgroundAfterMs ?? context.knobs.backgroundToolMs;
    let response: ToolResponse | undefined;
    if (escalateAfter > 0 && run.isMain) {
      const timer = new AbortController();
      const elapsed = abortableSleep(escalateAfter, { signal: AbortSignal.any([this.#signal, timer.signal]) }).then(
        () => undefined,
        () => undefined,
      );
      try {
        response = await Promise.race([reply, elapsed]);
      } finally {
        timer.abort();
      }
      this.#signal.throwIfAborted();
      if (response === undefined) {
        this.#moveToBackground({ base, toolCall, name, callId, reply });
        return;
      }
    } else {
      response = await reply;
    }
    await this.#completeCustomTool({ base, toolCall, name, callId, response });
  }

  /**
   * The harness may stop waiting for a slow custom tool, tell the model it runs in the background
   * and end the turn; the result then arrives outside any turn and starts one of its own.
   */
  #moveToBackground(call: Omit<CustomToolCompletion, "response"> & { reply: Promise<ToolResponse> }): void {
    const context = this.#context;
    context.logger.info(`conversation ${context.cascadeId}: tool ${call.name} (${call.toolCall.id}) moved to the background`);
    this.#setToolResult(`Tool ${call.name} is still running in the background.`);
    call.reply.then(
      (response) =>
        context.enqueueBackground((signal) =>
          new TurnRunner(context, { text: "", parts: [], trigger: true }, { signal }).completeInBackground({ ...call, response }),
        ),
      // Halted or closed before the result came: nothing left to complete.
      () => undefined,
    );
  }

  /** Runs the late completion of a background tool as a turn of its own. */
  async completeInBackground(call: CustomToolCompletion): Promise<void> {
    const context = this.#context;
    const main: TrajectoryRun = { trajectoryId: context.cascadeId, isMain: true, subagentName: undefined, openStep: undefined, lastText: "", finished: false };
    try {
      this.#sendTrajectoryState(context.cascadeId, "STATE_RUNNING");
      await this.#completeCustomTool(call);
      await this.#streamText(main, `Background tool ${call.name} finished: ${context.memory.lastToolResult}`, {});
      this.#sendTrajectoryState(context.cascadeId, "STATE_FULLY_IDLE");
    } catch (error) {
      if (!this.#signal.aborted) context.logger.error(`conversation ${context.cascadeId}: background completion failed: ${String(error)}`);
      this.#sendTrajectoryState(context.cascadeId, "STATE_FULLY_IDLE", this.#signal.aborted ? undefined : "Trajectory execution failed");
    }
  }

  /** The mirror step at DONE with the response, then the tool hooks; the model sees the result. */
  async #completeCustomTool(call: CustomToolCompletion): Promise<void> {
    const context = this.#context;
    const { base, toolCall, name, callId, response } = call;
    const interpreted = interpretToolResponse(response);
    const toolResponse: Record<string, unknown> = { id: callId };
    if (response.responseJson !== undefined) toolResponse["responseJson"] = response.responseJson;
    if (response.errorMessage !== undefined) toolResponse["errorMessage"] = response.errorMessage;
    const done: StepUpdate = { ...base, state: "STATE_DONE", customTool: { toolCall, toolResponse } };
    context.recorder.publish(done);
    if (context.knobs.rebroadcastMs > 0) context.recorder.rebroadcast(done);
    if (interpreted.error !== undefined) {
      await this.#reportToolError({ toolName: name, error: interpreted.error, callId });
      return;
    }
    const postArgs: Record<string, unknown> = { toolName: name, result: response.responseJson ?? "", error: "" };
    if (context.profile.hookCallIds) postArgs["callId"] = callId;
    await callHook(context, { type: "LIFECYCLE_HOOK_POST_TOOL", argsKey: "postToolArgs", args: postArgs, signal: this.#signal });
    this.#setToolResult(interpreted.text);
  }

  async #askQuestions(run: TrajectoryRun, action: Extract<ScenarioAction, { type: "question-ask" }>): Promise<void> {
    const context = this.#context;
    if (!this.#builtinEnabledFor(run, "ask_question")) {
      this.#modelMistake(run, 'Tool "ask_question" is not available');
      return;
    }
    const parsedChoices = action.choicesFromText === true ? choicesFromText(this.#input.text) : undefined;
    const questions = action.questions.map((question, index) => {
      const choices = index === 0 && parsedChoices !== undefined ? parsedChoices : question.choices.length > 0 ? question.choices : defaultChoices;
      const multipleChoice: Record<string, unknown> = { question: renderTemplate(question.question, this.#variables), choices };
      if (question.isMultiSelect === true) multipleChoice["isMultiSelect"] = true;
      return { multipleChoice, choices };
    });
    const stepIndex = context.recorder.allocate(run.trajectoryId);
    const base = { ...this.#baseStep(run, stepIndex), source: "SOURCE_MODEL" as const, target: "TARGET_USER" as const };
    const waiting: StepUpdate = {
      ...base,
      state: "STATE_WAITING_FOR_USER",
      questionsRequest: { questions: questions.map((question) => ({ multipleChoice: question.multipleChoice })) },
    };
    context.recorder.publish(waiting);
    const response = await this.#waitWithRebroadcast<QuestionResponse>(`question:${run.trajectoryId}:${stepIndex}`, waiting);
    const answer = describeAnswers(response, questions);
    this.#variables["answer"] = answer;
    context.recorder.publish({ ...base, state: "STATE_DONE" });
  }

  async #finish(run: TrajectoryRun, output: unknown): Promise<void> {
    const context = this.#context;
    const value = output ?? sampleArguments(context.config.finishSchema, this.#input.text);
    const stepIndex = context.recorder.allocate(run.trajectoryId);
    context.recorder.publish({
      ...this.#baseStep(run, stepIndex),
      state: "STATE_DONE",
      source: "SOURCE_MODEL",
      finish: { outputString: JSON.stringify(renderDeep(value, this.#variables)) },
    });
    run.finished = true;
  }

  async #runSubagent(run: TrajectoryRun, action: SubagentAction): Promise<void> {
    await this.#runSubagentsTogether(run, [action]);
  }

  /**
   * Runs subagents: each call's step and trajectory first, then the trajectories (at once when
   * there are several, the later ones started first: their steps interleave, and nothing on the
   * wire says which call started which), then each call settles in order.
   */
  async #runSubagentsTogether(run: TrajectoryRun, actions: readonly SubagentAction[]): Promise<void> {
    const started: StartedSubagent[] = [];
    for (const action of actions) {
      const subagent = await this.#beginSubagent(run, action);
      if (subagent !== undefined) started.push(subagent);
    }
    if (started.length === 0) return;
    this.#sendTrajectoryState(run.trajectoryId, "STATE_WAITING_FOR_TASKS");
    const errors = new Map<StartedSubagent, string | undefined>();
    await Promise.all(
      [...started].reverse().map(async (subagent) => {
        errors.set(subagent, await this.#playSubagent(subagent));
      }),
    );
    this.#sendTrajectoryState(run.trajectoryId, "STATE_RUNNING");
    for (const subagent of started) await this.#endSubagent(subagent, errors.get(subagent));
  }

  async #beginSubagent(run: TrajectoryRun, action: SubagentAction): Promise<StartedSubagent | undefined> {
    const context = this.#context;
    if (!run.isMain || !this.#builtinEnabledFor(run, "invoke_subagent")) {
      this.#modelMistake(run, 'Tool "invoke_subagent" is not available');
      return undefined;
    }
    const callId = context.ids.requestId("call");
    const argumentsJson = JSON.stringify(action.name === undefined ? {} : { name: action.name });
    const gate = await gateToolCall(context, { toolName: "invoke_subagent", argumentsJson, callId, signal: this.#signal });
    const stepIndex = context.recorder.allocate(run.trajectoryId);
    const base = { ...this.#baseStep(run, stepIndex), source: "SOURCE_MODEL" as const, target: "TARGET_ENVIRONMENT" as const };
    if (gate.kind === "deny") {
      this.#publishDenied({ ...base, text: "Invoking subagent", invokeSubagent: {} }, gate.reason);
      this.#setToolResult(`Error: ${gate.reason}`);
      return undefined;
    }
    context.recorder.publish({ ...base, state: "STATE_ACTIVE", text: "Invoking subagent", invokeSubagent: {} });
    const subagent: TrajectoryRun = {
      trajectoryId: context.ids.hexId(),
      isMain: false,
      subagentName: action.name,
      openStep: undefined,
      lastText: "",
      finished: false,
    };
    this.#sendTrajectoryState(subagent.trajectoryId, "STATE_RUNNING");
    return { action, callId, base, run: subagent };
  }

  /** Plays a subagent's trajectory to its end; returns its error, if it failed. */
  async #playSubagent(subagent: StartedSubagent): Promise<string | undefined> {
    let subagentError = subagent.action.error;
    try {
      await this.#runActions(subagent.run, subagent.action.actions);
      await this.#closeOpenStep(subagent.run);
    } catch (error) {
      if (this.#signal.aborted || error instanceof TurnAbandoned) throw error;
      subagentError = error instanceof TurnTermination ? error.trajectoryError : "Subagent failure";
    }
    this.#sendTrajectoryState(subagent.run.trajectoryId, "STATE_FULLY_IDLE", subagentError);
    return subagentError;
  }

  async #endSubagent(subagent: StartedSubagent, subagentError: string | undefined): Promise<void> {
    const context = this.#context;
    context.recorder.publish({ ...subagent.base, state: "STATE_DONE", text: "Invoking subagent", invokeSubagent: {} });
    const postArgs: Record<string, unknown> = { toolName: "invoke_subagent", result: subagent.run.lastText, error: subagentError ?? "" };
    if (context.profile.hookCallIds) postArgs["callId"] = subagent.callId;
    await callHook(context, { type: "LIFECYCLE_HOOK_POST_TOOL", argsKey: "postToolArgs", args: postArgs, signal: this.#signal });
    this.#sendUsageUpdate();
    this.#setToolResult(subagentError === undefined ? subagent.run.lastText : `Error: ${subagentError}`);
  }
}

/** The subagent-run actions in a row from `index` (none when the action there is another kind). */
function subagentRunAt(actions: readonly ScenarioAction[], index: number): SubagentAction[] {
  const run: SubagentAction[] = [];
  for (let next = index; next < actions.length; next += 1) {
    const action = actions[next] as ScenarioAction;
    if (action.type !== "subagent-run") break;
    run.push(action);
  }
  return run;
}
