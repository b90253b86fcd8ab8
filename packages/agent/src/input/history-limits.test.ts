import type { Message } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { AgentError } from "../errors/agent-error.js";
import { CheckedHistory, checkHistory } from "./history-limits.js";

const user = (id: string): Message => ({ id, role: "user", content: "hi" });

describe("checkHistory", () => {
  it("accepts a normal history, and returns its user messages in order", () => {
    const history: Message[] = [user("a"), { id: "b", role: "assistant", content: "ok" }, user("c")];
    expect(checkHistory(history)).toEqual([history[0], history[2]]);
    expect(() => checkHistory(Array.from({ length: 5_000 }, (_, index) => user(`m${index}`)))).not.toThrow();
  });

  it("reads each history on its own: the same history checked again (the next run) is accepted, a repeat within one is not, long ids included", () => {
    const long = `x${"y".repeat(300)}`;
    const history: Message[] = [user("a"), { id: "b", role: "assistant", content: "ok" }, user(long)];
    for (let run = 0; run < 3; run += 1) expect(checkHistory(history)).toHaveLength(2);
    expect(() => checkHistory([...history, user("b")])).toThrow(/Message 3 repeats the id "b"/);
    expect(() => checkHistory([...history, user(long)])).toThrow(/Message 3 repeats the id "xyyy/);
    expect(checkHistory([user("b"), user("a")])).toHaveLength(2);
  });

  it("refuses repeated ids with INVALID_INPUT and a reason", () => {
    const codeAndMessage = (messages: Message[]): string => {
      try {
        checkHistory(messages);
        return "accepted";
      } catch (error) {
        return AgentError.isInstance(error) ? `${error.code}: ${error.message}` : String(error);
      }
    };
    expect(codeAndMessage([user("a"), { id: "a", role: "assistant", content: "x" }])).toMatch(/^INVALID_INPUT: Message 1 repeats the id "a"/);
  });
});

describe("CheckedHistory", () => {
  const assistant = (id: string): Message => ({ id, role: "assistant", content: "ok" });
  const outcome = (check: () => unknown): string => {
    try {
      check();
      return "accepted";
    } catch (error) {
      return AgentError.isInstance(error) ? `${error.code}: ${error.message}` : String(error);
    }
  };

  it("checks a history that extends the last one against it, with checkHistory's results and errors", () => {
    const checked = new CheckedHistory();
    const history: Message[] = [user("a"), assistant("b")];
    expect(checked.check(history)).toEqual([history[0]]);
    // Extended by a reply and a user message: the added ones are checked, the kept ones compared.
    const next = [...history, assistant("c"), user("d")];
    expect(checked.check(next)).toEqual([next[0], next[3]]);
    // An added id that repeats a kept one, or another added one, is refused as checkHistory refuses it.
    for (const repeated of [[...next, user("a")], [...next, user("e"), assistant("e")], [...next, user("d")]]) {
      expect(outcome(() => checked.check(repeated))).toBe(outcome(() => checkHistory(repeated)));
      expect(outcome(() => checked.check(repeated))).toMatch(/^INVALID_INPUT: Message \d repeats the id/);
    }
    // A refused history is not kept: the one before it still is, and extends as before.
    expect(checked.check([...next, user("f")])).toHaveLength(3);
  });

  it("checks any other history whole: edited, shortened, reordered, or with many messages added", () => {
    const checked = new CheckedHistory();
    checked.check([user("a"), assistant("b"), user("c")]);
    // A kept id moved: its repeat is found by the whole check.
    expect(outcome(() => checked.check([user("c"), assistant("b"), user("c")]))).toMatch(/Message 2 repeats the id "c"/);
    expect(checked.check([user("x")])).toHaveLength(1);
    const many = [user("x"), ...Array.from({ length: 40 }, (_, index) => user(`n${index}`))];
    expect(checked.check(many)).toHaveLength(41);
    expect(outcome(() => checked.check([...many, user("n7")]))).toMatch(/Message 41 repeats the id "n7"/);
    // Long ids are checked whole, each time.
    const long = `x${"y".repeat(300)}`;
    expect(checked.check([user(long), assistant("b")])).toHaveLength(1);
    expect(outcome(() => checked.check([user(long), assistant("b"), user(long)]))).toMatch(/Message 2 repeats the id "xyyy/);
  });

  it("lets a thread grow past 500 user messages (no cap: the body size bounds a history), checking each run against the last", () => {
    const checked = new CheckedHistory();
    const long = Array.from({ length: 600 }, (_, index) => user(`m${index}`));
    expect(checked.check(long)).toHaveLength(600);
    expect(checked.check([...long, user("one-more")])).toHaveLength(601);
    expect(outcome(() => checked.check([...long, user("one-more"), user("m3")]))).toMatch(/^INVALID_INPUT: Message 601 repeats the id "m3"/);
  });
});
