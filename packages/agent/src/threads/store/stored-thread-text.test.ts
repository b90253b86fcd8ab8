import { describe, expect, it } from "vitest";
import { fingerprintMessage, type ForwardedMessage } from "../../input/message-fingerprint.js";
import type { StoredThread } from "./record-policy.js";
import { StoredThreadText } from "./stored-thread-text.js";

const stored = (forwarded: readonly ForwardedMessage[], conversationId = "c1"): StoredThread => ({
  version: 3,
  agentId: "chat",
  thread: "digest-of-t",
  conversationId,
  forwarded: forwarded as ForwardedMessage[],
  toolSignature: "sig",
  ...(forwarded.length % 2 === 0 ? { summary: { threadId: "t", firstUserMessage: "hello \"there\"" } } : {}),
  createdAt: 1_600_000_000_000,
  updatedAt: 1_700_000_000_000,
});
/** The members' text as one string, braces added back. */
const text = (chunks: readonly Uint8Array[]): string => `{${Buffer.concat(chunks).toString("utf8")}}`;
const messages = (count: number, from = 0): ForwardedMessage[] =>
  Array.from({ length: count }, (_, index) => fingerprintMessage(`m-${from + index}-é✓`, `text ${from + index} ${"ü".repeat(index % 7)}`));

describe("StoredThreadText", () => {
  it("gives the text JSON.stringify gives, as the list grows, slides, is replaced and emptied", () => {
    const encoder = new StoredThreadText({ maxRecords: 4 });
    const all = messages(700);
    const lists: ForwardedMessage[][] = [
      [],
      all.slice(0, 1),
      all.slice(0, 2),
      all.slice(0, 40),
      // The window slides (the store keeps the newest), one and several at a time.
      all.slice(1, 41),
      all.slice(5, 300),
      ...Array.from({ length: 300 }, (_, step) => all.slice(step + 6, step + 306)),
      // A list that is not the tail of the last one (a rebuilt conversation) is encoded anew.
      messages(3, 1_000),
      [all[0] as ForwardedMessage, all[2] as ForwardedMessage],
      all.slice(2, 4),
      [],
      all.slice(0, 3),
    ];
    for (const list of lists) {
      const record = stored(list);
      expect(text(encoder.members("a", record))).toBe(JSON.stringify(record));
    }
  });

  it("keeps each record's encoding apart, and encodes a forgotten or evicted record whole again", () => {
    const encoder = new StoredThreadText({ maxRecords: 2 });
    const all = messages(10);
    for (let count = 1; count <= 10; count += 1) {
      for (const path of ["a", "b", "c"]) {
        const record = stored(all.slice(0, count), `conversation-${path}`);
        expect(text(encoder.members(path, record))).toBe(JSON.stringify(record));
      }
      if (count === 5) encoder.forget("b");
    }
  });
});
