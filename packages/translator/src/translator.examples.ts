// Type-checked copies of the README and JSDoc examples: `pnpm typecheck` fails when
// an example stops compiling.
import { StepNormalizer } from "@ag-ui-antigravity/harness";
import { type OutputEvent, usageOf } from "@ag-ui-antigravity/harness/protocol";
import { type AGUIEvent, EventType } from "@ag-ui/core";
import { StepTranslator, TranslatorError, sequentialIds } from "./index.js";

/** The README example: one run of a turn, as the agent's run loop drives it. */
export function runLoopExample(harnessEvents: readonly OutputEvent[], threadId: string, runId: string, mainTrajectoryId: string): AGUIEvent[] {
  const normalizer = new StepNormalizer();
  const translator = new StepTranslator(); // one per conversation; reset() between turns
  const emitted: AGUIEvent[] = [];

  translator.startRun();
  emitted.push({ type: EventType.RUN_STARTED, threadId, runId });
  for (const event of harnessEvents) {
    if (event.stepUpdate) emitted.push(...translator.translate(normalizer.normalize(event.stepUpdate, { mainTrajectoryId, event })));
    const usage = usageOf(event);
    if (usage) translator.recordUsage(usage);
  }
  emitted.push(...translator.closeRun());
  const usage = translator.settleRunUsage();
  emitted.push({ type: EventType.RUN_FINISHED, threadId, runId, ...(usage.length > 0 ? { usage } : {}) });
  return emitted;
}

/** A host-side (frontend or server) tool: the call now, its result possibly in a later run. */
export function hostToolExample(translator: StepTranslator): AGUIEvent[] {
  const events = translator.toolCall({ toolCallId: "call-1", toolCallName: "change_background", arguments: { color: "blue" } });
  events.push(...translator.closeRun());
  translator.startRun();
  events.push(...translator.toolCallResult({ toolCallId: "call-1", output: { ok: true } }));
  return events;
}

/** Deterministic ids for golden files, and telling the package's errors apart. */
export function errorsExample(): string | undefined {
  try {
    new StepTranslator({ ids: sequentialIds({ prefix: "msg" }) }).toolCallResult({ toolCallId: "never-started", output: 1 });
  } catch (error) {
    if (TranslatorError.isInstance(error)) return error.code; // "UNKNOWN_TOOL_CALL"
    throw error;
  }
  return undefined;
}
