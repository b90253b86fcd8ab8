import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ThreadStore } from "./thread-store.js";

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});
function tempDir(): string {
  const directory = mkdtempSync(join(tmpdir(), "threads-"));
  directories.push(directory);
  return directory;
}
const record = (conversationId: string) => ({ conversationId, forwarded: [{ id: "u1", text: "hi" }], toolSignature: "sig" });

describe("ThreadStore", () => {
  it("persists across instances, so a restarted server resumes its threads", async () => {
    const directory = tempDir();
    const first = new ThreadStore({ directory });
    await first.set("t1", record("c1"));
    await first.set("t2", record("c2"));
    const second = new ThreadStore({ directory });
    expect(await second.get("t1")).toMatchObject({ conversationId: "c1", forwarded: [{ id: "u1", text: "hi" }] });
    expect(await second.get("t2")).toMatchObject({ conversationId: "c2" });
  });

  it("is bounded: the least recently updated threads are forgotten first", async () => {
    const store = new ThreadStore({ maxThreads: 100 });
    for (let index = 0; index < 10_000; index += 1) await store.set(`t${index}`, record(`c${index}`));
    expect(store.size).toBe(100);
    expect(await store.get("t0")).toBeUndefined();
    expect(await store.get("t9999")).toMatchObject({ conversationId: "c9999" });
  });

  it("forgets threads past their time to live and keeps only the newest forwarded ids", async () => {
    let now = 0;
    const store = new ThreadStore({ ttlMs: 1_000, maxForwardedPerThread: 2, now: () => now });
    await store.set("t", { conversationId: "c", toolSignature: "s", forwarded: [1, 2, 3].map((n) => ({ id: `u${n}`, text: "" })) });
    expect((await store.get("t"))?.forwarded.map((message) => message.id)).toEqual(["u2", "u3"]);
    now = 5_000;
    expect(await store.get("t")).toBeUndefined();
  });

  it("survives a corrupt file", async () => {
    const directory = tempDir();
    writeFileSync(join(directory, "ag-ui-threads.json"), "{not json");
    const store = new ThreadStore({ directory });
    expect(await store.get("t")).toBeUndefined();
    await store.set("t", record("c"));
    expect(await new ThreadStore({ directory }).get("t")).toMatchObject({ conversationId: "c" });
  });
});
