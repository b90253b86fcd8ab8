import type { ForwardedMessage } from "../../input/message-fingerprint.js";
import type { StoredThread } from "./record-policy.js";

/**
 * The JSON text of stored thread records (the members of the object, without its braces, as byte
 * chunks; the same text `JSON.stringify` gives), made without encoding again the forwarded
 * fingerprints that the record's previous write encoded. A thread's record is written every turn
 * and holds up to 500 fingerprints, while a turn adds one or two: encoding them all each time (and
 * copying the text on its way to the file) was most of what a turn allocated for its record. The
 * encoded fingerprints of the records written lately are kept (bounded, least recently used
 * forgotten first); any other record is encoded whole.
 */
export class StoredThreadText {
  readonly #entries = new Map<string, EncodedEntries>();
  readonly #maxRecords: number;

  constructor(options: { maxRecords: number }) {
    this.#maxRecords = options.maxRecords;
  }

  /**
   * The members of `stored`, which `path` names. The chunks are valid until the next call for the
   * same path (writes of one record do not overlap).
   */
  members(path: string, stored: StoredThread): Uint8Array[] {
    let entries = this.#entries.get(path);
    if (entries === undefined) entries = new EncodedEntries();
    else this.#entries.delete(path);
    this.#entries.set(path, entries);
    if (this.#entries.size > this.#maxRecords) {
      const [oldest] = this.#entries.keys();
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    const head =
      `"version":${JSON.stringify(stored.version)},"agentId":${JSON.stringify(stored.agentId)},"thread":${JSON.stringify(stored.thread)},` +
      `${stored.conversationId === undefined ? "" : `"conversationId":${JSON.stringify(stored.conversationId)},`}"forwarded":[`;
    const tail =
      `],"toolSignature":${JSON.stringify(stored.toolSignature)},` +
      `${stored.summary === undefined ? "" : `"summary":${JSON.stringify(stored.summary)},`}"createdAt":${JSON.stringify(stored.createdAt)},"updatedAt":${JSON.stringify(stored.updatedAt)}`;
    return [Buffer.from(head), entries.encode(stored.forwarded), Buffer.from(tail)];
  }

  /** Forgets what was encoded for `path` (its record was removed). */
  forget(path: string): void {
    this.#entries.delete(path);
  }
}

/**
 * One record's forwarded fingerprints, encoded: `,{"id":…,"digest":…}` each (a leading comma, so
 * any run of them from one on is a slice), in one buffer grown and compacted as the list slides.
 */
class EncodedEntries {
  /** The list last encoded (the fingerprints are never changed, only replaced by a new list). */
  #messages: readonly ForwardedMessage[] = [];
  /** Where each fingerprint's encoding starts in `#bytes`: entry `#base + i` is `#messages[i]`'s. */
  #starts: number[] = [];
  #base = 0;
  #bytes: Buffer = Buffer.alloc(0);
  #end = 0;

  /** The encoded fingerprints of `messages`, joined by commas (no brackets). */
  encode(messages: readonly ForwardedMessage[]): Uint8Array {
    const kept = this.#keptPrefix(messages);
    if (kept < 0) {
      this.#starts = [];
      this.#base = 0;
      this.#end = 0;
    }
    const reused = Math.max(kept, 0);
    const fresh: string[] = [];
    let freshBytes = 0;
    for (let index = reused; index < messages.length; index += 1) {
      const { id, digest } = messages[index] as ForwardedMessage;
      const text = `,{"id":${JSON.stringify(id)},"digest":${JSON.stringify(digest)}}`;
      fresh.push(text);
      freshBytes += Buffer.byteLength(text);
    }
    const first = reused > 0 ? (this.#starts[this.#base] as number) : this.#end;
    if (this.#end + freshBytes > this.#bytes.length) this.#grow(first, freshBytes);
    for (const text of fresh) {
      this.#starts.push(this.#end);
      this.#end += this.#bytes.write(text, this.#end, "utf8");
    }
    this.#messages = messages;
    if (messages.length === 0) return this.#bytes.subarray(0, 0);
    const start = this.#starts[this.#base] as number;
    // Without the first entry's comma.
    return this.#bytes.subarray(start + 1, this.#end);
  }

  /**
   * How many of `messages`, from the first, are the tail of the list encoded last (the window slid
   * and grew: the common case), after dropping the entries that slid out; -1 when they are not.
   */
  #keptPrefix(messages: readonly ForwardedMessage[]): number {
    const previous = this.#messages;
    if (previous.length === 0) return this.#starts.length === 0 ? 0 : -1;
    if (messages.length === 0) return -1;
    const from = previous.indexOf(messages[0] as ForwardedMessage);
    if (from === -1) return -1;
    const kept = previous.length - from;
    if (kept > messages.length) return -1;
    for (let index = 0; index < kept; index += 1) if (previous[from + index] !== messages[index]) return -1;
    this.#base += from;
    return kept;
  }

  /** A new buffer holding the entries from byte `first` on, with room for `more` bytes (the old one may still be written from). */
  #grow(first: number, more: number): void {
    const live = this.#end - first;
    const bytes = Buffer.allocUnsafeSlow(Math.max(1_024, 2 * (live + more)));
    this.#bytes.copy(bytes, 0, first, this.#end);
    this.#starts = this.#starts.slice(this.#base).map((start) => start - first);
    this.#base = 0;
    this.#bytes = bytes;
    this.#end = live;
  }
}
