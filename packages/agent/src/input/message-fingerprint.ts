import { createHash } from "node:crypto";

/**
 * What a thread remembers of one user message it forwarded: its id and a digest of its text,
 * never the text. Both are bounded, so a thread's memory and its stored record stay the same size
 * whether the user sent "hi" or 900 kB.
 */
export interface ForwardedMessage {
  /** The message id, or a digest of it when the client sent a long one. */
  id: string;
  /** `<length>:<sha-256 of the text, base64url>`: tells an edited message from the one forwarded. */
  digest: string;
}

/**
 * User messages a thread remembers having forwarded: the newest this many. A longer thread lives on:
 * the messages before the window are taken as forwarded (see new-user-messages.ts), so a run costs
 * what its new messages cost, however long the thread.
 */
export const FORWARDED_WINDOW = 500;

/** The newest `FORWARDED_WINDOW` of a forwarded list (the list itself when it is within it). */
export function forwardedWindow(forwarded: ForwardedMessage[]): ForwardedMessage[] {
  return forwarded.length > FORWARDED_WINDOW ? forwarded.slice(-FORWARDED_WINDOW) : forwarded;
}

/** Ids up to this length are kept as sent (readable in the store); longer ones are digested. */
export const maxKeptIdLength = 128;
/** How a digested id starts. */
export const digestIdPrefix = "sha256:";

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}

/** The bounded form of a message id, as the thread store keeps it. */
export function boundedMessageId(id: string): string {
  return id.length <= maxKeptIdLength ? id : `${digestIdPrefix}${sha256(id)}`;
}

/**
 * Every run compares each user message of the client's history with what was forwarded, so the
 * same short texts are digested turn after turn: their digests are kept, oldest forgotten first,
 * within a memory budget. The budget counts what an entry costs the heap, not only its text: the
 * digest string, two string headers and a Map slot add ~175 bytes to each (measured: 187 bytes for
 * an 11-character text), so a budget of 1 Mi characters let ~95 000 one-line messages hold ~17 MiB.
 * Long texts are rare and digested each time.
 */
const maxCachedTextLength = 4_096;
const maxCachedBytes = 1_048_576;
/** An entry's heap cost past its text's characters (the digest string, two string headers, a Map slot), rounded up. */
const cachedEntryOverheadBytes = 192;
const cachedDigests = new Map<string, string>();
let cachedBytes = 0;

const cachedEntryBytes = (text: string): number => text.length + cachedEntryOverheadBytes;

/** The digest of a message's text (its length and a hash). */
export function textDigest(text: string): string {
  const cached = cachedDigests.get(text);
  if (cached !== undefined) return cached;
  const digest = `${text.length}:${sha256(text)}`;
  if (text.length <= maxCachedTextLength) {
    cachedDigests.set(text, digest);
    cachedBytes += cachedEntryBytes(text);
    for (const oldest of cachedDigests.keys()) {
      if (cachedBytes <= maxCachedBytes) break;
      cachedDigests.delete(oldest);
      cachedBytes -= cachedEntryBytes(oldest);
    }
  }
  return digest;
}

export function fingerprintMessage(id: string, text: string): ForwardedMessage {
  return { id: boundedMessageId(id), digest: textDigest(text) };
}
