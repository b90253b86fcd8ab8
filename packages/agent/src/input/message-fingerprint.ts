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
 * same short texts are digested turn after turn: their digests are kept, up to a bounded number of
 * characters (oldest forgotten first). Long texts are rare and digested each time.
 */
const maxCachedTextLength = 4_096;
const maxCachedCharacters = 1_048_576;
const cachedDigests = new Map<string, string>();
let cachedCharacters = 0;

/** The digest of a message's text (its length and a hash). */
export function textDigest(text: string): string {
  const cached = cachedDigests.get(text);
  if (cached !== undefined) return cached;
  const digest = `${text.length}:${sha256(text)}`;
  if (text.length <= maxCachedTextLength) {
    cachedDigests.set(text, digest);
    cachedCharacters += text.length;
    for (const oldest of cachedDigests.keys()) {
      if (cachedCharacters <= maxCachedCharacters) break;
      cachedDigests.delete(oldest);
      cachedCharacters -= oldest.length;
    }
  }
  return digest;
}

export function fingerprintMessage(id: string, text: string): ForwardedMessage {
  return { id: boundedMessageId(id), digest: textDigest(text) };
}
