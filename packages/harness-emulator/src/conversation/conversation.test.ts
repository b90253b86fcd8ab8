import { describe, expect, it } from "vitest";
import { truncateCloseReason } from "./conversation.js";

describe("truncateCloseReason", () => {
  it("keeps at most 123 UTF-8 bytes and never cuts a character", () => {
    expect(truncateCloseReason("short")).toBe("short");
    const emoji = "😀".repeat(40);
    const cut = truncateCloseReason(emoji);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(123);
    expect(cut).toBe("😀".repeat(30));
    expect(Buffer.byteLength(truncateCloseReason("é".repeat(100)))).toBe(122);
  });
});
