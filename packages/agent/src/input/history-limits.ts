import type { Message, UserMessage } from "@ag-ui/client";
import { AgentError } from "../errors/agent-error.js";

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
 * the harness see?). Throws INVALID_INPUT naming the problem, before anything touches the thread.
 * Returns the user messages, oldest first, read in the same pass (every run carries the whole
 * history, and reading it again cost a second array). A thread may hold any number of messages: the
 * body size limit bounds a history, and the thread remembers the newest it forwarded.
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
    if (repeated) throw repeatedId(index, id);
    if (message.role === "user") userMessages.push(message);
  }
  return userMessages;
}

/** Messages a run may add to the history its thread's last run brought and still be checked against it. */
const maxAddedMessages = 16;
/**
 * The longest history whose ids a thread keeps for the next run's check: well past what the body
 * size limit lets a run bring (1 MiB holds some 20 000 of the smallest messages), so a long thread's
 * run is checked against its last one, not whole again.
 */
const maxKeptHistory = 50_000;

/**
 * `checkHistory` for one thread's runs, each of which brings the thread's whole history again with a
 * message or two added: the ids of the last history it accepted are kept (a history with no
 * repeated id), so the next one is compared with them in order, string with string, and only the
 * added messages' ids are looked for among the earlier ones. Checked against the table instead,
 * every message cost a hash and two lookups in a table shared by every thread, the run's largest
 * cost before the harness could start on it (a few hundred messages, every turn). Any other
 * history (edited, shortened, or adding more messages) is checked whole, and kept in turn.
 * Same results, errors included, as `checkHistory`.
 */
export class CheckedHistory {
  /** The ids of the last history accepted, in order; empty when none is kept. */
  #ids: string[] = [];

  check(messages: readonly Message[]): UserMessage[] {
    const extended = this.#checkExtension(messages);
    if (extended !== undefined) return extended;
    const userMessages = checkHistory(messages);
    this.#keep(messages);
    return userMessages;
  }

  /** The user messages of a history that extends the kept one, checked; undefined for any other history. */
  #checkExtension(messages: readonly Message[]): UserMessage[] | undefined {
    const ids = this.#ids;
    const kept = ids.length;
    const added = messages.length - kept;
    if (kept === 0 || added < 0 || added > maxAddedMessages) return undefined;
    const userMessages: UserMessage[] = [];
    for (let index = 0; index < kept; index += 1) {
      const message = messages[index] as Message;
      if (message.id !== ids[index]) return undefined;
      if (message.role === "user") userMessages.push(message);
    }
    // The kept ids are distinct: an added id is compared with every id before it. Ids are bounded
    // (a longer one is checked whole), and so is the work: at most 16 × 2 000 comparisons.
    for (let index = kept; index < messages.length; index += 1) {
      const message = messages[index] as Message;
      const id = message.id;
      if (id.length > idsSeen.maxRememberedIdLength) return undefined;
      for (let earlier = 0; earlier < index; earlier += 1) {
        if ((messages[earlier] as Message).id === id) throw repeatedId(index, id);
      }
      if (message.role === "user") userMessages.push(message);
    }
    if (messages.length > maxKeptHistory) this.#ids = [];
    else for (let index = kept; index < messages.length; index += 1) ids.push((messages[index] as Message).id);
    return userMessages;
  }

  #keep(messages: readonly Message[]): void {
    if (messages.length > maxKeptHistory || messages.some((message) => message.id.length > idsSeen.maxRememberedIdLength)) {
      this.#ids = [];
      return;
    }
    this.#ids = messages.map((message) => message.id);
  }
}

function repeatedId(index: number, id: string): AgentError {
  return new AgentError("INVALID_INPUT", `Message ${index} repeats the id ${JSON.stringify(id.slice(0, 80))} of an earlier message; every message needs its own id.`);
}
