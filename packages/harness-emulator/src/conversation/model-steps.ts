import { renderDeep } from "../scenario/template.js";
import { callHook } from "./hook-caller.js";
import { sampleArguments } from "../scenario/schema-sample.js";
import type { StepUpdate } from "../wire/output-messages.js";
import { abortableSleep, yieldToEventLoop } from "./abortable-sleep.js";
import type { ScriptedTurn, TrajectoryRun } from "./scripted-turn.js";
import { estimateTokens } from "./usage-meter.js";

/** How a scenario paces a streamed text (each falls back to the emulator's knobs). */
export interface StreamPacing {
  chunkSize?: number | undefined;
  delayMs?: number | undefined;
}

/** Streams thinking into the run's open model step (opened when none is). */
export function streamThinking(turn: ScriptedTurn, run: TrajectoryRun, text: string, pacing: StreamPacing): Promise<void> {
  return stream(turn, run, text, pacing, "thinking");
}

/** Streams an answer into the run's open model step, then completes the step. */
export async function streamText(turn: ScriptedTurn, run: TrajectoryRun, text: string, pacing: StreamPacing): Promise<void> {
  await stream(turn, run, text, pacing, "text");
  await closeOpenStep(turn, run);
}

/** Completes the open model step (DONE with cumulative text/thinking) and reports usage. */
export async function closeOpenStep(turn: ScriptedTurn, run: TrajectoryRun): Promise<void> {
  const step = run.openStep;
  if (step === undefined) return;
  run.openStep = undefined;
  const context = turn.context;
  const text = typeof step.text === "string" ? step.text : "";
  const thinking = typeof step.thinking === "string" ? step.thinking : undefined;
  const done: StepUpdate = { ...step, state: "STATE_DONE", text };
  if (thinking !== undefined) done.thinking = thinking;
  context.usage.add(run.trajectoryId, {
    prompt: estimateTokens(turn.input.text) + estimateTokens(context.memory.lastToolResult) + 32,
    candidates: estimateTokens(text),
    thoughts: estimateTokens(thinking ?? ""),
  });
  context.memory.tokensSinceCompaction += estimateTokens(text) + estimateTokens(thinking ?? "");
  context.recorder.publish(done, { usageMetadata: context.usage.total() });
  if (text !== "") run.lastText = text;
  turn.sendUsageUpdate();
  await Promise.resolve();
}

/** The user's (or trigger's) message as a step of the main trajectory, as it appears in history. */
export function echoInput(turn: ScriptedTurn): void {
  const context = turn.context;
  const stepIndex = context.recorder.allocate(context.cascadeId);
  context.recorder.publish({
    cascadeId: context.cascadeId,
    trajectoryId: context.cascadeId,
    stepIndex,
    state: "STATE_DONE",
    source: turn.input.trigger ? "SOURCE_SYSTEM" : "SOURCE_USER",
    target: "TARGET_MODEL",
    text: turn.input.text,
  });
  context.memory.tokensSinceCompaction += estimateTokens(turn.input.text) + 64;
}

/** A compaction step once the conversation's context passed the configured threshold. */
export async function compactIfNeeded(turn: ScriptedTurn, run: TrajectoryRun): Promise<void> {
  const context = turn.context;
  if (context.memory.tokensSinceCompaction < context.config.compactionThreshold) return;
  await emitCompaction(turn, run, { text: "Context compaction" });
}

/**
 * A compaction: the SOURCE_SYSTEM step with the `compaction` marker, then (0.1.14) the
 * ON_COMPACTION hook with the summary that replaced the earlier context.
 */
export async function emitCompaction(turn: ScriptedTurn, run: TrajectoryRun, options: { text: string; summary?: string | undefined }): Promise<void> {
  const context = turn.context;
  context.memory.tokensSinceCompaction = 0;
  const stepIndex = context.recorder.allocate(run.trajectoryId);
  context.recorder.publish({ ...turn.baseStep(run, stepIndex), state: "STATE_DONE", source: "SOURCE_SYSTEM", target: "TARGET_USER", text: options.text, compaction: {} });
  if (!context.profile.has("compactionHook")) return;
  const summary = options.summary ?? `Summary of the conversation so far. The user said:\n${turn.variables["earlierUserMessages"] ?? "(none)"}`;
  await callHook(context, {
    type: "LIFECYCLE_HOOK_ON_COMPACTION",
    argsKey: "onCompactionArgs",
    args: { trajectoryId: run.trajectoryId, stepIndex, summary },
    signal: turn.signal,
  });
}

/** The structured output step (`finish`): the scenario's output, or a sample of the configured schema. */
export function finish(turn: ScriptedTurn, run: TrajectoryRun, output: unknown): void {
  const context = turn.context;
  const value = output ?? sampleArguments(context.config.finishSchema, turn.request);
  turn.publishNewStep(run, { state: "STATE_DONE", source: "SOURCE_MODEL", finish: { outputString: JSON.stringify(renderDeep(value, turn.variables)) } });
  run.finished = true;
}

function openModelStep(turn: ScriptedTurn, run: TrajectoryRun): StepUpdate {
  if (run.openStep !== undefined) return run.openStep;
  // A new model step is a new call to the model: the budget pays for it first.
  turn.context.budget.beforeModelCall();
  const stepIndex = turn.context.recorder.allocate(run.trajectoryId);
  run.openStep = { ...turn.baseStep(run, stepIndex), state: "STATE_ACTIVE", source: "SOURCE_MODEL", target: "TARGET_USER" };
  return run.openStep;
}

async function stream(turn: ScriptedTurn, run: TrajectoryRun, text: string, pacing: StreamPacing, field: "text" | "thinking"): Promise<void> {
  const context = turn.context;
  const step = openModelStep(turn, run);
  const size = pacing.chunkSize ?? context.knobs.chunkSize;
  const delay = context.knobs.deterministic ? 0 : (pacing.delayMs ?? context.knobs.tokenDelayMs);
  const deltaField = field === "text" ? "textDelta" : "thinkingDelta";
  let count = 0;
  for (const piece of chunk(text, size)) {
    if (delay > 0) await abortableSleep(delay, { signal: turn.signal });
    else if (++count % 64 === 0) await yieldToEventLoop();
    turn.signal.throwIfAborted();
    await context.channel.drained();
    step[field] = (typeof step[field] === "string" ? step[field] : "") + piece;
    const update: StepUpdate = { ...step, [deltaField]: piece };
    context.recorder.publish(update);
  }
}

/** Splits on code points, never inside a surrogate pair: a lone surrogate is invalid in protobuf JSON. */
function chunk(text: string, size: number): string[] {
  const codePoints = Array.from(text);
  const pieces: string[] = [];
  for (let offset = 0; offset < codePoints.length; offset += size) pieces.push(codePoints.slice(offset, offset + size).join(""));
  return pieces;
}
