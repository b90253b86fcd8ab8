import type { Message, RunAgentInput } from "@ag-ui/core";
import { isPlainObject } from "../json/json-value.js";

/** An answer to an interrupt, whichever channel it came through. */
export interface InterruptAnswerOffer {
  /** Absent when the client named no interrupt (a bare `forwardedProps.command`). */
  interruptId?: string;
  status: "resolved" | "cancelled";
  payload: unknown;
  channel: "resume" | "command";
}

/** A ToolMessage, which only ever answers a frontend tool call. */
export interface ToolResultOffer {
  toolCallId: string;
  content: string;
  error?: string;
}

export interface CollectedAnswers {
  interruptAnswers: InterruptAnswerOffer[];
  toolResults: ToolResultOffer[];
  /** True when `forwardedProps.command` was present but `resume` entries took precedence. */
  commandIgnored: boolean;
}

/**
 * Reads every answer a run carries. `resume` is AG-UI's channel and wins: when it has entries,
 * `forwardedProps.command` is not read, so one answer can never arrive twice through two channels.
 */
export function collectAnswers(input: Pick<RunAgentInput, "messages" | "resume" | "forwardedProps">): CollectedAnswers {
  // Every run carries the whole history, and most of it is not tool results: one pass, no array per
  // message, and indexed (run once per turn, this code stays unoptimised long enough for `for…of`
  // to allocate an iterator result per message).
  const toolResults: ToolResultOffer[] = [];
  const messages = input.messages;
  for (let index = 0; index < messages.length; index += 1) {
    const result = toolResultOf(messages[index] as Message);
    if (result !== undefined) toolResults.push(result);
  }
  const resume = input.resume ?? [];
  const command: unknown = isPlainObject(input.forwardedProps) ? input.forwardedProps.command : undefined;
  if (resume.length > 0) {
    const interruptAnswers = resume.map((entry): InterruptAnswerOffer => ({ interruptId: entry.interruptId, status: entry.status, payload: entry.payload, channel: "resume" }));
    return { interruptAnswers, toolResults, commandIgnored: command !== undefined && command !== null };
  }
  const fromCommand = commandAnswer(command);
  return { interruptAnswers: fromCommand === undefined ? [] : [fromCommand], toolResults, commandIgnored: false };
}

/**
 * `forwardedProps.command` in the shapes the ecosystem sends:
 * - `{ interruptId | interrupt_id, payload?, status? }` (CopilotKit Channels): the payload is
 *   `payload`, or the object without its envelope keys;
 * - `{ resume, interruptEvent? }` (CopilotKit before 1.61.2, LangGraph, Mastra): the payload is
 *   `resume`; the interrupt id is read from `interruptEvent` (a JSON string or an object) when it has one;
 * - any other value: a bare answer for the single parked interrupt.
 */
export function commandAnswer(command: unknown): InterruptAnswerOffer | undefined {
  if (command === undefined || command === null) return undefined;
  if (isPlainObject(command) && (typeof command.interruptId === "string" || typeof command.interrupt_id === "string")) {
    const interruptId = (command.interruptId ?? command.interrupt_id) as string;
    const { interruptId: _id, interrupt_id: _snakeId, status: _status, ...rest } = command;
    const payload = "payload" in command ? command.payload : rest;
    return { interruptId, status: command.status === "cancelled" ? "cancelled" : "resolved", payload, channel: "command" };
  }
  if (isPlainObject(command) && "resume" in command) {
    const interruptId = interruptIdFromEvent(command.interruptEvent);
    const answer: InterruptAnswerOffer = { status: "resolved", payload: command.resume, channel: "command" };
    if (interruptId !== undefined) answer.interruptId = interruptId;
    return answer;
  }
  return { status: "resolved", payload: command, channel: "command" };
}

function interruptIdFromEvent(event: unknown, depth = 0): string | undefined {
  if (depth > 2) return undefined;
  let value = event;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      // LangGraph sends the interrupt's own value, which may be plain text with no id in it.
      return undefined;
    }
  }
  if (!isPlainObject(value)) return undefined;
  for (const key of ["interruptId", "interrupt_id", "id"]) {
    const candidate = value[key];
    if (typeof candidate === "string" && candidate !== "") return candidate;
  }
  return interruptIdFromEvent(value.value, depth + 1);
}

function toolResultOf(message: Message): ToolResultOffer | undefined {
  if (message.role !== "tool" || message.toolCallId === "") return undefined;
  const result: ToolResultOffer = { toolCallId: message.toolCallId, content: contentText(message.content) };
  if (message.error !== undefined) result.error = message.error;
  return result;
}

/** A ToolMessage's content as the text the model reads; media parts are named, not dropped silently. */
function contentText(content: Message["content"]): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? "" : JSON.stringify(content);
  return content
    .map((part) => (part.type === "text" ? part.text : `[${part.type} attachment not forwarded]`))
    .join("\n");
}
