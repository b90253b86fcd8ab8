// Small builders for AG-UI events, so the scripted runs below read as conversations, not JSON.
import { EventType, type BaseEvent, type Interrupt } from "@ag-ui/core";

let counter = 0;
/** Ids unique within the stand-in's process; readable in failure output. */
export function nextId(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** Splits text into word-sized deltas, so the page has something to stream. */
export function deltasOf(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [text];
}

/** Splits a JSON document into several pieces, as a model streaming tool arguments would. */
export function piecesOf(json: string, count = 4): string[] {
  const size = Math.max(1, Math.ceil(json.length / count));
  const pieces: string[] = [];
  for (let start = 0; start < json.length; start += size) pieces.push(json.slice(start, start + size));
  return pieces;
}

export function runStarted(threadId: string, runId: string): BaseEvent {
  return { type: EventType.RUN_STARTED, threadId, runId } as BaseEvent;
}

export function runFinishedSuccess(threadId: string, runId: string, pendingToolCallIds: string[] = []): BaseEvent {
  const outcome = pendingToolCallIds.length > 0 ? { type: "success", pendingToolCallIds } : { type: "success" };
  return { type: EventType.RUN_FINISHED, threadId, runId, outcome } as BaseEvent;
}

export function runFinishedInterrupt(threadId: string, runId: string, interrupts: Interrupt[]): BaseEvent {
  return { type: EventType.RUN_FINISHED, threadId, runId, outcome: { type: "interrupt", interrupts } } as BaseEvent;
}

export function runError(message: string, code: string): BaseEvent {
  return { type: EventType.RUN_ERROR, message, code } as BaseEvent;
}

export function textMessage(text: string, messageId = nextId("message")): BaseEvent[] {
  return [
    { type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" } as BaseEvent,
    ...deltasOf(text).map((delta) => ({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta }) as BaseEvent),
    { type: EventType.TEXT_MESSAGE_END, messageId } as BaseEvent,
  ];
}

export function reasoning(text: string): BaseEvent[] {
  const messageId = nextId("reasoning");
  return [
    { type: EventType.REASONING_START, messageId } as BaseEvent,
    { type: EventType.REASONING_MESSAGE_START, messageId, role: "reasoning" } as BaseEvent,
    ...deltasOf(text).map((delta) => ({ type: EventType.REASONING_MESSAGE_CONTENT, messageId, delta }) as BaseEvent),
    { type: EventType.REASONING_MESSAGE_END, messageId } as BaseEvent,
    { type: EventType.REASONING_END, messageId } as BaseEvent,
  ];
}

export function toolCall(toolCallId: string, toolCallName: string, args: unknown, parentMessageId?: string): BaseEvent[] {
  return [
    { type: EventType.TOOL_CALL_START, toolCallId, toolCallName, ...(parentMessageId === undefined ? {} : { parentMessageId }) } as BaseEvent,
    ...piecesOf(JSON.stringify(args)).map((delta) => ({ type: EventType.TOOL_CALL_ARGS, toolCallId, delta }) as BaseEvent),
    { type: EventType.TOOL_CALL_END, toolCallId } as BaseEvent,
  ];
}

export function toolResult(toolCallId: string, content: string): BaseEvent {
  return { type: EventType.TOOL_CALL_RESULT, messageId: nextId("tool-result"), toolCallId, content, role: "tool" } as BaseEvent;
}

export function stateSnapshot(snapshot: unknown): BaseEvent {
  return { type: EventType.STATE_SNAPSHOT, snapshot } as BaseEvent;
}

export function stateDelta(delta: Array<{ op: string; path: string; value?: unknown }>): BaseEvent {
  return { type: EventType.STATE_DELTA, delta } as BaseEvent;
}

export function messagesSnapshot(messages: unknown[]): BaseEvent {
  return { type: EventType.MESSAGES_SNAPSHOT, messages } as BaseEvent;
}
