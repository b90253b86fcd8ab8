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
