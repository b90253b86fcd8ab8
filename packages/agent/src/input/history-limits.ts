import type { Message, UserMessage } from "@ag-ui/client";
import { AgentError } from "../errors/agent-error.js";

/**
 * User messages one thread's history may hold. The thread map remembers the ids of this many
 * forwarded messages, so a longer history could no longer be matched against what the harness has
 * seen and would be rebuilt on every run; it is refused instead, with the reason.
 */
export const maxUserMessages = 500;

/**
 * The ids `checkHistory` has seen, each with the number of the check that saw it last: a thread's
 * history comes back whole every run, so its ids are mostly there already and a check only
 * overwrites their numbers, where a new set per run allocated and grew a table the size of the
 * history every time. Bounded: ids longer than `maxRememberedIdLength` (client input of any size)
 * are checked in a set of the run's own, and past `maxRemembered` ids it starts over.
 */
const idsSeen = {
  map: new Map<string, number>(),
  check: 0,
  maxRemembered: 8_192,
  maxRememberedIdLength: 128,
  begin(): Map<string, number> {
    if (this.map.size > this.maxRemembered) this.map = new Map();
    this.check += 1;
    return this.map;
  },
};

/**
 * Refuses a history the agent cannot read unambiguously: two messages with one id (which one did
 * the harness see?), or more user messages than a thread can hold. Throws INVALID_INPUT naming the
 * problem, before anything touches the thread. Returns the user messages, oldest first, read in the
 * same pass (every run carries the whole history, and reading it again cost a second array).
 */
export function checkHistory(messages: readonly Message[]): UserMessage[] {
  const seen = idsSeen.begin();
  const check = idsSeen.check;
  let longIds: Set<string> | undefined;
  const userMessages: UserMessage[] = [];
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index] as Message;
    const id = message.id;
    let repeated: boolean;
    if (id.length > idsSeen.maxRememberedIdLength) {
      longIds ??= new Set();
      repeated = longIds.has(id);
      longIds.add(id);
    } else {
      repeated = seen.get(id) === check;
      seen.set(id, check);
    }
    if (repeated) {
      throw new AgentError("INVALID_INPUT", `Message ${index} repeats the id ${JSON.stringify(id.slice(0, 80))} of an earlier message; every message needs its own id.`);
    }
    if (message.role === "user") userMessages.push(message);
  }
  if (userMessages.length > maxUserMessages) {
    throw new AgentError("INVALID_INPUT", `The history holds ${userMessages.length} user messages; a thread holds at most ${maxUserMessages}. Start a new thread.`);
  }
  return userMessages;
}
