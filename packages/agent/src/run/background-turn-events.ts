import type { AGUIEvent, RunAgentInput } from "@ag-ui/client";
import type { Turn } from "@ag-ui-antigravity/harness";
import { eventsOfHookNote } from "../hooks/hook-notes.js";
import { cumulativeUsageOf, runFinished, runStarted } from "./run-events.js";
import { toRunError } from "./run-error.js";
import type { AntigravitySession } from "../sessions/antigravity-session.js";

/**
 * A turn the harness started on its own (a trigger, or output that came with no turn running, such
 * as a background tool's result) as one AG-UI run. No HITL run is open for it, so every step,
 * server tool calls included, is translated as it comes.
 */
export async function* backgroundTurnEvents(session: AntigravitySession, turn: Turn, input: RunAgentInput): AsyncGenerator<AGUIEvent, void, undefined> {
  const translator = session.translator;
  yield runStarted(input);
  translator.startRun();
  try {
    for await (const step of turn) {
      yield* translator.translate(step);
      // What its hooks told the agent since, after the step they followed.
      for (const note of session.takeBackgroundNotes()) yield* eventsOfHookNote(translator, note);
      for (const end of session.takeSubagentEnds()) {
        yield* translator.finishSubagent(end);
      }
    }
    await turn.result;
    for (const note of session.takeBackgroundNotes()) yield* eventsOfHookNote(translator, note);
    const conversation = session.conversation;
    if (conversation !== undefined) translator.recordUsage(cumulativeUsageOf(conversation.usage));
    translator.reset();
    yield* translator.closeRun();
    yield runFinished({ threadId: input.threadId, runId: input.runId, usage: translator.settleRun() });
  } catch (error) {
    translator.reset();
    yield* translator.closeRun();
    yield toRunError(error).event;
  }
}
