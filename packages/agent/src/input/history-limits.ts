import type { Message, UserMessage } from "@ag-ui/client";
import { AgentError } from "../errors/agent-error.js";

/**
 * User messages one thread's history may hold. The thread map remembers the ids of this many
 * forwarded messages, so a longer history could no longer be matched against what the harness has
 * seen and would be rebuilt on every run; it is refused instead, with the reason.
 */
export const maxUserMessages = 500;

/**
 * Refuses a history the agent cannot read unambiguously: two messages with one id (which one did
 * the harness see?), or more user messages than a thread can hold. Throws INVALID_INPUT naming the
 * problem, before anything touches the thread. Returns the user messages, oldest first, read in the
 * same pass (every run carries the whole history, and reading it again cost a second array).
 */
export function checkHistory(messages: readonly Message[]): UserMessage[] {
  const seen = new Set<string>();
  const userMessages: UserMessage[] = [];
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index] as Message;
    if (seen.has(message.id)) {
      throw new AgentError("INVALID_INPUT", `Message ${index} repeats the id ${JSON.stringify(message.id.slice(0, 80))} of an earlier message; every message needs its own id.`);
    }
    seen.add(message.id);
    if (message.role === "user") userMessages.push(message);
  }
  if (userMessages.length > maxUserMessages) {
    throw new AgentError("INVALID_INPUT", `The history holds ${userMessages.length} user messages; a thread holds at most ${maxUserMessages}. Start a new thread.`);
  }
  return userMessages;
}
