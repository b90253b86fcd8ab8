import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expectClosesOnce } from "@ag-ui-antigravity/testing";
import { afterEach, describe, expect, it } from "vitest";
import { FileOwnershipStore } from "./file-ownership-store.js";
import { ownershipDigest } from "./ownership-digest.js";

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});
function tempDir(): string {
  const directory = mkdtempSync(join(tmpdir(), "owners-"));
  directories.push(directory);
  return directory;
}
const key = (threadId: string, agentId = "chat") => ({ agentId, threadId });
const ownerFile = (directory: string, threadId: string, agentId = "chat") => {
  const digest = ownershipDigest(agentId, threadId);
  return join(directory, "ag-ui-owners", digest.agent, `${digest.thread}.json`);
};

describe("FileOwnershipStore", () => {
  it("survives a restart: a new store on the same directory knows every owner", async () => {
    const directory = tempDir();
    const before = new FileOwnershipStore({ directory });
    expect(await before.claim(key("t1"), "alice")).toBe("claimed");
    const after = new FileOwnershipStore({ directory });
    expect(await after.claim(key("t1"), "mallory")).toBe("refused");
    expect(await after.claim(key("t1"), "alice")).toBe("owned");
    expect(await after.ownerOf(key("t1"))).toBe("alice");
    expect(await after.claim(key("t1", "research"), "mallory")).toBe("claimed");
  });

  it("lets exactly one of many concurrent claimers (several processes' stores) win a thread", async () => {
    const directory = tempDir();
    const stores = Array.from({ length: 4 }, () => new FileOwnershipStore({ directory }));
    for (let thread = 0; thread < 20; thread += 1) {
      const results = await Promise.all(stores.flatMap((store, index) => [store.claim(key(`t${thread}`), `user-${index}`), store.claim(key(`t${thread}`), `user-${index + 10}`)]));
      expect(results.filter((result) => result === "claimed")).toHaveLength(1);
      expect(results.filter((result) => result === "refused")).toHaveLength(7);
    }
    const files = readdirSync(join(directory, "ag-ui-owners", ownershipDigest("chat", "t0").agent));
    expect(files.filter((name) => !name.endsWith(".json"))).toEqual([]);
    expect(files).toHaveLength(20);
  });

  it("a torn or foreign owner file and an expired owner are claimed anew; a live one never", async () => {
    const directory = tempDir();
    const owners = new FileOwnershipStore({ directory, ttlMs: 60_000 });
    mkdirSync(join(ownerFile(directory, "torn"), ".."), { recursive: true });
    writeFileSync(ownerFile(directory, "torn"), '{"version":1,"agentId":"ch');
    expect(await owners.claim(key("torn"), "alice")).toBe("claimed");
    await owners.claim(key("old"), "alice");
    const longAgo = new Date(Date.now() - 3_600_000);
    utimesSync(ownerFile(directory, "old"), longAgo, longAgo);
    expect(await owners.ownerOf(key("old"))).toBeUndefined();
    expect(await owners.claim(key("old"), "bob")).toBe("claimed");
    expect(await owners.claim(key("old"), "alice")).toBe("refused");
  });

  it("releases only its owner's claim", async () => {
    const directory = tempDir();
    const owners = new FileOwnershipStore({ directory });
    await owners.claim(key("t"), "alice");
    await owners.release(key("t"), "mallory");
    expect(await owners.ownerOf(key("t"))).toBe("alice");
    await owners.release(key("t"), "alice");
    expect(await owners.claim(key("t"), "bob")).toBe("claimed");
  });

  it("close() aborts signal, is idempotent and resolves closed; every claim was on disk already", async () => {
    const directory = tempDir();
    const owners = new FileOwnershipStore({ directory });
    await owners.claim(key("t1"), "alice");
    await expectClosesOnce(owners, () => owners.close());
    expect(await new FileOwnershipStore({ directory }).ownerOf(key("t1"))).toBe("alice");
  });
});
