import { describe, expect, it } from "vitest";
import { randomIds, sequentialIds } from "./id-generator.js";

describe("id generators", () => {
  it("count independently per generator", () => {
    const first = sequentialIds({ prefix: "msg" });
    const second = sequentialIds();
    expect([first(), first(), second()]).toEqual(["msg-1", "msg-2", "id-1"]);
  });

  it("mint distinct UUIDs by default", () => {
    const next = randomIds();
    const ids = new Set(Array.from({ length: 100 }, () => next()));
    expect(ids.size).toBe(100);
    expect([...ids][0]).toMatch(/^[0-9a-f-]{36}$/);
  });
});
