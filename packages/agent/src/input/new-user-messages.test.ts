import type { Message } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { FORWARDED_WINDOW, fingerprintMessage } from "./message-fingerprint.js";
import { readHistory, transcriptUpTo } from "./new-user-messages.js";

const user = (id: string, content: string): Message => ({ id, role: "user", content });
const assistant = (id: string, content: string): Message => ({ id, role: "assistant", content });

describe("readHistory", () => {
  it("returns every user message new since the last run, in order, not only the newest", () => {
    const reading = readHistory({
      messages: [user("u1", "hi"), assistant("a1", "hello"), user("u2", "first"), user("u3", "second")],
      forwarded: [fingerprintMessage("u1", "hi")],
      carriesAnswers: false,
    });
    expect(reading).toEqual({ kind: "continue", newUserMessages: [user("u2", "first"), user("u3", "second")] });
  });

  it("ignores blank user messages and a trailing assistant message", () => {
    const reading = readHistory({ messages: [user("u1", "  "), user("u2", "go"), assistant("a", "ok")], forwarded: [], carriesAnswers: false });
    expect(reading).toEqual({ kind: "continue", newUserMessages: [user("u2", "go")] });
  });

  it("sees nothing new in a run that only carries answers", () => {
    const reading = readHistory({ messages: [user("u1", "hi")], forwarded: [fingerprintMessage("u1", "hi")], carriesAnswers: true });
    expect(reading).toEqual({ kind: "continue", newUserMessages: [] });
  });

  it("detects a regenerate: the last message is a forwarded user message and nothing else is asked", () => {
    const reading = readHistory({ messages: [user("u1", "hi")], forwarded: [fingerprintMessage("u1", "hi")], carriesAnswers: false });
    expect(reading).toEqual({ kind: "diverged", reason: "regenerate", userMessageIndex: 0 });
  });

  it("detects an edited message, a removed one, and a new message inserted before forwarded ones", () => {
    const forwarded = [
      fingerprintMessage("u1", "one"),
      fingerprintMessage("u2", "two"),
    ];
    expect(readHistory({ messages: [user("u1", "one"), user("u2", "TWO")], forwarded, carriesAnswers: false })).toMatchObject({ kind: "diverged", reason: "edited", userMessageIndex: 1 });
    expect(readHistory({ messages: [user("u1", "one"), user("u9", "new")], forwarded, carriesAnswers: false })).toMatchObject({ kind: "diverged", reason: "edited" });
    expect(readHistory({ messages: [user("u0", "zero"), user("u1", "one"), user("u2", "two")], forwarded, carriesAnswers: false })).toMatchObject({ kind: "diverged", reason: "edited", userMessageIndex: 0 });
  });

  it("reads a history that extends the forwarded one as the same, whatever the shape of its ids", () => {
    const longId = `u-${"x".repeat(200)}`;
    const cases: Array<{ ids: [string, string, string]; note: string }> = [
      { ids: ["u1", "u2", "u3"], note: "short ids" },
      { ids: [longId, "u2", `${longId}-2`], note: "ids kept as digests" },
      { ids: ["sha256:abc", "u2", "u3"], note: "an id that looks like a digest" },
    ];
    for (const { ids, note } of cases) {
      const [first, second, third] = ids;
      const forwarded = [fingerprintMessage(first, "one"), fingerprintMessage(second, "two")];
      const history = [user(first, "one"), assistant("a1", "ok"), user(second, "two"), assistant("a2", "ok")];
      expect(readHistory({ messages: [...history, user(third, "three")], forwarded, carriesAnswers: false }), note).toEqual({ kind: "continue", newUserMessages: [user(third, "three")] });
      expect(readHistory({ messages: [...history, user(third, " ")], forwarded, carriesAnswers: false }), note).toEqual({ kind: "continue", newUserMessages: [] });
      expect(readHistory({ messages: history, forwarded, carriesAnswers: false }), note).toEqual({ kind: "continue", newUserMessages: [] });
      expect(readHistory({ messages: history.slice(0, 3), forwarded, carriesAnswers: false }), note).toEqual({ kind: "diverged", reason: "regenerate", userMessageIndex: 1 });
      expect(readHistory({ messages: [user(first, "one"), user(second, "TWO"), user(third, "three")], forwarded, carriesAnswers: false }), note).toMatchObject({ kind: "diverged", reason: "edited", userMessageIndex: 1 });
    }
  });

  it("tells a digest-like id from the long id it would stand for", () => {
    const longId = `u-${"y".repeat(200)}`;
    const forwarded = [fingerprintMessage(longId, "one")];
    const spoof = forwarded[0]?.id ?? "";
    expect(spoof.startsWith("sha256:")).toBe(true);
    // The digest of the long id, sent as an id of its own, is that forwarded message as the thread stores it.
    expect(readHistory({ messages: [user(spoof, "one"), user("u2", "two")], forwarded, carriesAnswers: false })).toEqual({ kind: "continue", newUserMessages: [user("u2", "two")] });
  });
});

describe("readHistory of a thread longer than its forwarded window", () => {
  const history = (count: number): Message[] => Array.from({ length: count }, (_, index) => user(`u${index}`, `message ${index}`));
  const window = (messages: Message[]) => messages.slice(-FORWARDED_WINDOW).map((message) => fingerprintMessage(message.id, String(message.content)));

  it("takes the messages before the window as forwarded: only the new ones go, in the fast reading and the general one", () => {
    const messages = history(600);
    const forwarded = window(messages);
    const next = [...messages, user("u600", "the next one")];
    expect(readHistory({ messages: next, forwarded, carriesAnswers: false })).toEqual({ kind: "continue", newUserMessages: [user("u600", "the next one")] });
    // Ids the general reading compares as digests: the same answer.
    const digested = next.map((message, index) => user(`${"x".repeat(130)}${message.id}`, index === 600 ? "the next one" : `message ${index}`));
    expect(readHistory({ messages: digested, forwarded: window(digested.slice(0, 600)), carriesAnswers: false })).toEqual({ kind: "continue", newUserMessages: [digested[600]] });
  });

  it("still notices an edit inside the window, and a window whose first message the client no longer has", () => {
    const messages = history(600);
    const forwarded = window(messages);
    const edited = messages.map((message, index) => (index === 550 ? user(message.id, "changed") : message));
    expect(readHistory({ messages: [...edited, user("u600", "next")], forwarded, carriesAnswers: false })).toMatchObject({ kind: "diverged", reason: "edited" });
    expect(readHistory({ messages: [...messages.slice(0, 100), ...messages.slice(101), user("u600", "next")], forwarded, carriesAnswers: false })).toMatchObject({ kind: "diverged", reason: "edited" });
  });
});

describe("transcriptUpTo", () => {
  it("renders the history up to the chosen user message", () => {
    const messages = [user("u1", "one"), assistant("a1", "reply"), user("u2", "two"), assistant("a2", "later"), user("u3", "three")];
    const { transcript, lastUserMessage } = transcriptUpTo(messages, 1);
    expect(transcript).toBe("user: one\n\nassistant: reply\n\nuser: two\n\nassistant: later");
    expect(lastUserMessage?.id).toBe("u2");
  });
});
