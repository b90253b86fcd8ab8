import { describe, expect, it } from "vitest";
import { ThreadOwnership } from "./thread-ownership.js";

describe("ThreadOwnership", () => {
  it("gives a thread to its first principal and refuses every other one", () => {
    const ownership = new ThreadOwnership();
    expect(ownership.claim("t1", "alice")).toBe("claimed");
    expect(ownership.claim("t1", "alice")).toBe("owned");
    expect(ownership.claim("t1", "bob")).toBe("refused");
    expect(ownership.ownerOf("t1")).toBe("alice");
  });

  it("forgets the least recently used thread past its cap", () => {
    const ownership = new ThreadOwnership({ maxEntries: 2 });
    ownership.claim("t1", "alice");
    ownership.claim("t2", "alice");
    ownership.claim("t1", "alice"); // t1 is now the most recently used
    ownership.claim("t3", "carol");
    expect(ownership.size).toBe(2);
    expect(ownership.ownerOf("t2")).toBeUndefined();
    expect(ownership.ownerOf("t1")).toBe("alice");
    expect(ownership.claim("t2", "bob")).toBe("claimed");
  });

  it("does not let a refused claim refresh the owner's entry", () => {
    const ownership = new ThreadOwnership({ maxEntries: 2 });
    ownership.claim("t1", "alice");
    ownership.claim("t2", "alice");
    expect(ownership.claim("t1", "mallory")).toBe("refused");
    ownership.claim("t3", "alice");
    expect(ownership.ownerOf("t1")).toBeUndefined();
  });
});
