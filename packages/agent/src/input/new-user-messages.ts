import type { Message, UserMessage } from "@ag-ui/client";
import { boundedMessageId, digestIdPrefix, FORWARDED_WINDOW, type ForwardedMessage, maxKeptIdLength, textDigest } from "./message-fingerprint.js";
import { contentText } from "./prompt-parts.js";

/** What a run's message history means for the thread's conversation. */
export type HistoryReading =
  /** Every user message the client sent since the last run, oldest first (possibly none). */
  | { kind: "continue"; newUserMessages: UserMessage[] }
  /**
   * The client's history no longer extends what the conversation has seen: a user message we
   * forwarded is gone or was edited, or the client asks to regenerate the last answer. The
   * conversation has to be rebuilt from the client's history.
   */
  | { kind: "diverged"; reason: "edited" | "regenerate"; userMessageIndex: number };

/**
 * Compares the client's history with what the session forwarded. Identity is by message id, and
 * content is compared too, so an edited message with a kept id is noticed.
 */
export function readHistory(options: {
  messages: readonly Message[];
  forwarded: readonly ForwardedMessage[];
  /** True when the run carries answers (tool results, resume entries, a command): not a regenerate. */
  carriesAnswers: boolean;
  /** The user messages of `messages`, oldest first, when the caller has them already (`checkHistory`). */
  userMessages?: UserMessage[];
}): HistoryReading {
  const userMessages = options.userMessages ?? options.messages.filter((message): message is UserMessage => message.role === "user");
  const reading = readExtendedHistory(options.forwarded, userMessages) ?? readAnyHistory(options.forwarded, userMessages);
  if (reading.kind === "diverged") return reading;
  if (reading.newUserMessages.length > 0) return { kind: "continue", newUserMessages: reading.newUserMessages };
  // Nothing new, and the history ends with a user message the conversation already has: the client
  // asks for a new answer to it.
  if (!options.carriesAnswers && options.messages.at(-1)?.role === "user" && reading.lastForwarded) {
    return { kind: "diverged", reason: "regenerate", userMessageIndex: userMessages.length - 1 };
  }
  return { kind: "continue", newUserMessages: [] };
}

/** A client history that extends what was forwarded: its new user messages, and whether its last user message was forwarded already. */
interface Extension {
  kind: "extends";
  newUserMessages: UserMessage[];
  lastForwarded: boolean;
}

type Divergence = Extract<HistoryReading, { kind: "diverged" }>;

/**
 * Where the forwarded list begins in the client's user messages: 0 while the thread has forwarded
 * fewer than `FORWARDED_WINDOW` messages; past that the list holds only the newest, and the client's
 * older messages (before its first entry) were forwarded too. Undefined when a full window's first
 * message is not in the client's history (the general reading decides).
 */
function windowStart(forwarded: readonly ForwardedMessage[], userMessages: readonly UserMessage[], idOf: (message: UserMessage) => string): number | undefined {
  if (forwarded.length < FORWARDED_WINDOW) return 0;
  const first = (forwarded[0] as ForwardedMessage).id;
  // Searched from where it sits when the run adds nothing (the common case is a step or two before).
  for (let index = userMessages.length - forwarded.length; index >= 0; index -= 1) {
    if (idOf(userMessages[index] as UserMessage) === first) return index;
  }
  return undefined;
}

/**
 * The common case, read without building an index of either side: the client's user messages hold
 * exactly the ones forwarded, in order and unedited (from the start, or from where a full window
 * begins), with any new ones after them. Undefined for any other history (the general reading
 * decides it). Ids that are bounded to a digest, or that look like one, are left to the general
 * reading too: only there are they compared as the thread stores them.
 */
function readExtendedHistory(forwarded: readonly ForwardedMessage[], userMessages: UserMessage[]): Extension | undefined {
  if (userMessages.length < forwarded.length) return undefined;
  for (let index = 0; index < userMessages.length; index += 1) {
    const id = (userMessages[index] as UserMessage).id;
    if (id.length > maxKeptIdLength || id.startsWith(digestIdPrefix)) return undefined;
  }
  const start = windowStart(forwarded, userMessages, (message) => message.id);
  if (start === undefined) return undefined;
  for (let index = 0; index < forwarded.length; index += 1) {
    const message = userMessages[start + index] as UserMessage;
    const seen = forwarded[index] as ForwardedMessage;
    if (message.id !== seen.id || seen.digest !== textDigest(contentText(message.content))) return undefined;
  }
  // Message ids are unique (checkHistory), so none after the forwarded ones was forwarded.
  const end = start + forwarded.length;
  return { kind: "extends", newUserMessages: userMessages.slice(end).filter(hasContent), lastForwarded: userMessages.length === end && forwarded.length > 0 };
}

/** Any history: by id (bounded as the thread stores it) and content digest, in whatever order. */
function readAnyHistory(forwarded: readonly ForwardedMessage[], allUserMessages: UserMessage[]): Extension | Divergence {
  const forwardedById = new Map(forwarded.map((message) => [message.id, message]));
  // The thread keeps bounded ids and digests, never the text (see message-fingerprint.ts).
  const idOf = (message: UserMessage): string => boundedMessageId(message.id);
  // Messages before a full window's first one were forwarded before it: they are not new.
  const start = windowStart(forwarded, allUserMessages, idOf) ?? 0;
  const userMessages = start === 0 ? allUserMessages : allUserMessages.slice(start);
  const clientIds = new Set(userMessages.map(idOf));

  for (let index = 0; index < userMessages.length; index += 1) {
    const message = userMessages[index] as UserMessage;
    const seen = forwardedById.get(idOf(message));
    if (seen !== undefined && seen.digest !== textDigest(contentText(message.content))) {
      return { kind: "diverged", reason: "edited", userMessageIndex: start + index };
    }
  }
  const missing = forwarded.findIndex((message) => !clientIds.has(message.id));
  if (missing !== -1) return { kind: "diverged", reason: "edited", userMessageIndex: Math.max(0, missing) };

  const newUserMessages = userMessages.filter((message) => !forwardedById.has(idOf(message)) && hasContent(message));
  if (newUserMessages.length > 0) {
    // A new message placed before one already forwarded rewrites the past, not the future.
    const lastForwardedIndex = userMessages.findLastIndex((message) => forwardedById.has(idOf(message)));
    const firstNewIndex = userMessages.findIndex((message) => newUserMessages[0]?.id === message.id);
    if (lastForwardedIndex > firstNewIndex) return { kind: "diverged", reason: "edited", userMessageIndex: start + firstNewIndex };
  }
  const last = userMessages.at(-1);
  return { kind: "extends", newUserMessages, lastForwarded: last !== undefined && forwardedById.has(idOf(last)) };
}

function hasContent(message: UserMessage): boolean {
  return typeof message.content === "string" ? message.content.trim().length > 0 : message.content.length > 0;
}

/**
 * A transcript of the client's history up to (and including) the user message at
 * `userMessageIndex`, used as the first prompt of a rebuilt conversation.
 */
export function transcriptUpTo(messages: readonly Message[], userMessageIndex: number): { transcript: string; lastUserMessage?: UserMessage } {
  const lines: string[] = [];
  let userSeen = -1;
  let lastUserMessage: UserMessage | undefined;
  for (const message of messages) {
    if (message.role === "user") {
      userSeen += 1;
      if (userSeen > userMessageIndex) break;
      lastUserMessage = message;
    }
    if (message.role !== "user" && message.role !== "assistant") continue;
    const text = contentText(message.content);
    if (text.length > 0) lines.push(`${message.role}: ${text}`);
  }
  return { transcript: lines.join("\n\n"), ...(lastUserMessage === undefined ? {} : { lastUserMessage }) };
}
