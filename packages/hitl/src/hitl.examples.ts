/*
 * The README's examples, compiled by `pnpm typecheck` so they cannot drift from the API. Not part
 * of the build (tsup bundles src/index.ts only).
 */
import type { BaseEvent, RunAgentInput } from "@ag-ui/core";
import { EventType } from "@ag-ui/core";
import type { Conversation, CustomTool } from "@ag-ui-antigravity/harness";
import { HitlError, getState, interrupt, setState, type HitlBridge, type RunItem } from "./index.js";

/** A server tool that asks the user, and keeps a booking list in the shared state. */
export const bookSlot: CustomTool = {
  name: "book_slot",
  description: "Books a meeting slot after the user confirms it.",
  parameters: { type: "object", properties: { slot: { type: "string" } }, required: ["slot"] },
  handler: async (args) => {
    const answer = await interrupt("myapp:confirm_booking", {
      message: `Book ${String(args.slot)}?`,
      responseSchema: { type: "object", properties: { confirmed: { type: "boolean" } }, required: ["confirmed"] },
    });
    if (answer.status !== "resolved") return `Not booked: the user ${answer.status === "cancelled" ? "declined to answer" : "moved on"}.`;
    if ((answer.payload as { confirmed: boolean }).confirmed !== true) return "The user said no.";
    const state = getState() as { bookings?: string[] };
    setState({ ...state, bookings: [...(state.bookings ?? []), String(args.slot)] });
    return `Booked ${String(args.slot)}.`;
  },
};

/** One AG-UI run of a thread, the way the agent package drives the bridge (translation elided). */
export async function runOnce(
  bridge: HitlBridge,
  conversation: Conversation,
  input: RunAgentInput,
  newUserText: string | undefined,
  emit: (event: BaseEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  emit({ type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId } as BaseEvent);
  let run;
  try {
    run = bridge.beginRun(input, {
      ...(newUserText === undefined ? {} : { newInput: newUserText }),
      startTurn: (text, { preamble, signal: turnSignal }) => conversation.send(preamble === undefined ? text : `${preamble}\n\n${text}`, { signal: turnSignal }),
    });
  } catch (error) {
    if (!HitlError.isInstance(error)) throw error;
    emit({ type: EventType.RUN_ERROR, message: error.message, code: error.code } as BaseEvent);
    return;
  }
  for await (const item of run.items({ signal })) emitItem(item, emit);
  const conclusion = run.finish();
  if (conclusion.type === "interrupt") {
    if (conclusion.stateSnapshot !== undefined) emit({ type: EventType.STATE_SNAPSHOT, snapshot: conclusion.stateSnapshot } as BaseEvent);
    emit({ type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId, outcome: { type: "interrupt", interrupts: conclusion.interrupts } } as BaseEvent);
  } else {
    emit({ type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId } as BaseEvent);
  }
}

function emitItem(item: RunItem, emit: (event: BaseEvent) => void): void {
  // A translator's updateState(item.state) sends STATE_DELTA against the last state sent instead.
  if (item.type === "state") emit({ type: EventType.STATE_SNAPSHOT, snapshot: item.state } as BaseEvent);
  // Steps, tool calls and results go through the translator (translate, toolCall, toolCallResult).
}
