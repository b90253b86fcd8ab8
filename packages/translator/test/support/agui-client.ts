// Replays an AG-UI event stream through the real @ag-ui/client: its schema, its verifier and its
// default reducer, so a test sees exactly what a client would accept and render.
import { AbstractAgent, defaultApplyEvents, verifyEvents } from "@ag-ui/client";
import { type BaseEvent, EventType, type Message, type RunAgentInput } from "@ag-ui/core";
import { EventSchema } from "@ag-ui/core/schemas";
import { EMPTY, type Observable, from, lastValueFrom, toArray } from "rxjs";

/** An agent that never runs: the reducer only needs one to hang pending interrupts on. */
class ReplayAgent extends AbstractAgent {
  run(): Observable<BaseEvent> {
    return EMPTY;
  }
}

export interface ClientView {
  messages: Message[];
  state: unknown;
  /** Whatever the reducer warned about (an unknown message id, a patch that did not apply, ...). */
  warnings: string[];
}

/** Wraps a translator's events in the run loop's bracket, as the agent package will. */
export function asRun(events: readonly BaseEvent[], runId = "run-1"): BaseEvent[] {
  return [
    { type: EventType.RUN_STARTED, threadId: "thread-1", runId },
    ...events,
    { type: EventType.RUN_FINISHED, threadId: "thread-1", runId },
  ];
}

/**
 * Validates every event against the AG-UI schema, verifies the stream with `verifyEvents` and
 * applies it with `defaultApplyEvents`. Rejects on the first schema or ordering violation.
 */
export async function replayThroughClient(events: readonly BaseEvent[], initialState: unknown = {}): Promise<ClientView> {
  for (const event of events) {
    const parsed = EventSchema.safeParse(event);
    if (!parsed.success) throw new Error(`Schema rejects ${event.type}: ${parsed.error.message}\n${JSON.stringify(event)}`);
  }
  const input: RunAgentInput = { threadId: "thread-1", runId: "run-1", messages: [], tools: [], context: [], state: initialState };
  const warnings: string[] = [];
  const originalWarn = console.warn;
  console.warn = (...parts: unknown[]) => warnings.push(parts.map(String).join(" "));
  try {
    const verified$ = from(events).pipe(verifyEvents());
    const mutations = await lastValueFrom(defaultApplyEvents(input, verified$, new ReplayAgent(), []).pipe(toArray()));
    let messages: Message[] = [];
    let state: unknown = initialState;
    for (const mutation of mutations) {
      if (mutation.messages !== undefined) messages = mutation.messages;
      if (mutation.state !== undefined) state = mutation.state;
    }
    return { messages, state, warnings };
  } finally {
    console.warn = originalWarn;
  }
}

/** The reducer's message list reduced to what a reader of a test wants to compare. */
export function summarize(messages: readonly Message[]): unknown[] {
  return messages.map((message) => {
    const summary: Record<string, unknown> = { role: message.role };
    if ("content" in message && message.content !== undefined) summary["content"] = message.content;
    if (message.role === "assistant" && message.toolCalls !== undefined && message.toolCalls.length > 0) {
      summary["toolCalls"] = message.toolCalls.map((call) => ({ name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown }));
    }
    if (message.role === "tool") summary["toolCallId"] = message.toolCallId;
    if (message.subagentRunId !== undefined) summary["subagentRunId"] = message.subagentRunId;
    return summary;
  });
}
