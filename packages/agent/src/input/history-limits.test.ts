import type { Message } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { AgentError } from "../errors/agent-error.js";
import { checkHistory, maxUserMessages } from "./history-limits.js";

const user = (id: string): Message => ({ id, role: "user", content: "hi" });

describe("checkHistory", () => {
  it("accepts a normal history, and returns its user messages in order", () => {
    const history: Message[] = [user("a"), { id: "b", role: "assistant", content: "ok" }, user("c")];
    expect(checkHistory(history)).toEqual([history[0], history[2]]);
    expect(() => checkHistory(Array.from({ length: maxUserMessages }, (_, index) => user(`m${index}`)))).not.toThrow();
  });

  it("reads each history on its own: the same history checked again (the next run) is accepted, a repeat within one is not, long ids included", () => {
    const long = `x${"y".repeat(300)}`;
    const history: Message[] = [user("a"), { id: "b", role: "assistant", content: "ok" }, user(long)];
    for (let run = 0; run < 3; run += 1) expect(checkHistory(history)).toHaveLength(2);
    expect(() => checkHistory([...history, user("b")])).toThrow(/Message 3 repeats the id "b"/);
    expect(() => checkHistory([...history, user(long)])).toThrow(/Message 3 repeats the id "xyyy/);
    expect(checkHistory([user("b"), user("a")])).toHaveLength(2);
  });

  it("refuses repeated ids and oversized histories with INVALID_INPUT and a reason", () => {
    const codeAndMessage = (messages: Message[]): string => {
      try {
        checkHistory(messages);
        return "accepted";
      } catch (error) {
        return AgentError.isInstance(error) ? `${error.code}: ${error.message}` : String(error);
      }
    };
    expect(codeAndMessage([user("a"), { id: "a", role: "assistant", content: "x" }])).toMatch(/^INVALID_INPUT: Message 1 repeats the id "a"/);
    expect(codeAndMessage(Array.from({ length: maxUserMessages + 1 }, (_, index) => user(`m${index}`)))).toMatch(/^INVALID_INPUT: The history holds 501 user messages; a thread holds at most 500/);
  });
});
