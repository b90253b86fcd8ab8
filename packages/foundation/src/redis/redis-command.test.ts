import { describe, expect, it } from "vitest";
import { sendRedisCommand } from "./redis-command.js";

describe("sendRedisCommand", () => {
  it("returns the client's reply and passes the command through as is", async () => {
    const sent: string[][] = [];
    const reply = await sendRedisCommand({ sendCommand: (args) => (sent.push(args), Promise.resolve("OK")) }, ["SET", "key", "value"], 1_000);
    expect(reply).toBe("OK");
    expect(sent).toEqual([["SET", "key", "value"]]);
  });

  it("rejects naming the command when no reply comes in time, and rejects with the client's own error", async () => {
    await expect(sendRedisCommand({ sendCommand: () => new Promise(() => undefined) }, ["GET", "key"], 20)).rejects.toThrow("Redis did not answer GET within 20 ms");
    await expect(sendRedisCommand({ sendCommand: () => Promise.reject(new Error("connection lost")) }, ["GET", "key"], 1_000)).rejects.toThrow("connection lost");
  });
});
