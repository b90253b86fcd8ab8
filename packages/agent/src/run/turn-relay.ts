import type { AGUIEvent } from "@ag-ui/client";
import type { SubagentEnd, TokenUsage } from "@ag-ui-antigravity/harness";
import type { RunItem } from "@ag-ui-antigravity/hitl";
import type { StepTranslator } from "@ag-ui-antigravity/translator";
import { eventsOfHookNote, isHookNote } from "../hooks/hook-notes.js";
import { cumulativeUsageOf } from "./run-events.js";

/** Takes a run's events in order, as they are produced (synchronously: it must not throw). */
export type EmitEvent = (event: AGUIEvent) => void;

/** What the relay reads besides the item: the thread's translator, and what the run knows of its conversation. */
export interface TurnRelayContext {
  /** The thread's translator (its memory spans the turn, and a parked turn's runs). */
  readonly translator: StepTranslator;
  /** The conversation's usage so far, when it is open (a turn's end records it). */
  usage(): TokenUsage | undefined;
}

/**
 * Maps one item of a HITL run (a harness step, or what the bridge tells the client) onto the
 * translator, and its events onto `emit`, in order. It decides nothing about the run (its start,
 * its end, its errors): only what each item says to the client. The bridge's stream says each call
 * once (it drops the harness's mirror steps of its own tools), so every item is translated. Pushed to `emit` rather than
 * returned: it runs for every step of a burst, and an array per item would be garbage for nothing.
 */
export function relayItem(item: RunItem, context: TurnRelayContext, emit: EmitEvent): void {
  const translator = context.translator;
  switch (item.type) {
    case "step":
      emitAll(translator.translate(item.step), emit);
      return;
    case "turn-ended": {
      const usage = context.usage();
      if (usage !== undefined) translator.recordUsage(cumulativeUsageOf(usage));
      emitAll(translator.settleUnreportedCalls(), emit);
      translator.reset();
      return;
    }
    case "tool-call":
      emitAll(translator.toolCall({ toolCallId: item.toolCallId, toolCallName: item.toolName, arguments: item.arguments }), emit);
      return;
    case "tool-denied":
      // The bridge denied it (or the harness refused a host tool's call), so the card is closed from
      // that knowledge, not from whatever the harness reports next (docs/protocol.md, "Assumptions
      // and how we hedge them"). A host tool's card no harness step shows: it is opened first. A
      // refusal is not an execution error: it says plainly that the call did not run, and why.
      if (item.hostTool === true) {
        emitAll(translator.toolCall({ toolCallId: item.toolCallId, toolCallName: item.toolName, arguments: item.arguments }), emit);
      }
      emitAll(translator.refuseCall({ toolCallId: item.toolCallId, toolName: item.toolName, reason: item.reason }), emit);
      return;
    case "tool-result":
      emitAll(
        translator.toolCallResult(item.failed ? { toolCallId: item.toolCallId, errorMessage: item.content } : { toolCallId: item.toolCallId, output: item.content }),
        emit,
      );
      return;
    case "interrupt":
      // The interrupt travels in RUN_FINISHED's outcome. An approval of a host tool shows its pending
      // call now, so the client can render what it is asked to approve; when the call then runs, the
      // translator recognises the id and does not start it twice.
      if (item.approval?.hostTool === true) {
        emitAll(translator.toolCall({ toolCallId: item.approval.toolCallId, toolCallName: item.approval.toolName, arguments: item.approval.arguments }), emit);
      }
      return;
    case "state":
      // The translator owns the base the client was sent, whoever changes the state.
      emitAll(translator.updateState(item.state), emit);
      return;
    case "relayed":
      // What a harness hook told the agent, where it came between the turn's steps.
      if (isHookNote(item.note)) emitAll(eventsOfHookNote(translator, item.note), emit);
      return;
  }
}

/** Subagents that ended, each closed on the translator (a subagent's end is a trajectory state, not a step). */
export function relaySubagentEnds(ends: readonly SubagentEnd[], translator: StepTranslator, emit: EmitEvent): void {
  for (const end of ends) emitAll(translator.finishSubagent(end), emit);
}

export function emitAll(events: readonly AGUIEvent[], emit: EmitEvent): void {
  for (const event of events) emit(event);
}
