import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expectClosesOnce } from "@ag-ui-antigravity/testing";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fingerprintMessage } from "../../input/message-fingerprint.js";
import { FileThreadStore } from "./file-thread-store.js";
import { agentDigest, threadDigest } from "./thread-digest.js";

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});
function tempDir(): string {
  const directory = mkdtempSync(join(tmpdir(), "threads-"));
  directories.push(directory);
  return directory;
}
const record = (conversationId: string, text = "hi") => ({ conversationId, forwarded: [fingerprintMessage("u1", text)], toolSignature: "sig" });
const key = (threadId: string, agentId = "chat") => ({ agentId, threadId });
const threadFiles = (directory: string, agentId = "chat") => readdirSync(join(directory, "ag-ui-threads", agentDigest(agentId)));
/** This process's open files under `directory` (Linux: /proc/self/fd), as paths. */
const openFilesUnder = (directory: string): string[] =>
  readdirSync("/proc/self/fd").flatMap((descriptor) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${descriptor}`);
      return target.startsWith(directory) ? [target] : [];
    } catch {
      return [];
    }
  });

describe("FileThreadStore", () => {
  it("persists across instances, so a restarted server resumes its threads", async () => {
    const directory = tempDir();
    const first = new FileThreadStore({ directory });
    await first.set(key("t1"), record("c1"));
    await first.set(key("t2"), record("c2"));
    await first.close();
    const second = new FileThreadStore({ directory });
    expect(await second.get(key("t1"))).toMatchObject({ conversationId: "c1", forwarded: [fingerprintMessage("u1", "hi")] });
    expect(await second.get(key("t2"))).toMatchObject({ conversationId: "c2" });
    await second.close();
  });

  it("close() aborts signal at once, is idempotent, and resolves closed once the pending write and the clean-up have landed", async () => {
    const directory = tempDir();
    const store = new FileThreadStore({ directory });
    const written = store.set(key("t1"), record("c1"));
    await expectClosesOnce(store, () => store.close());
    await written;
    expect(threadFiles(directory)).toEqual([`${threadDigest("t1")}.json`]);
  });

  it("keys threads by (agent, thread): another agent never sees a thread id it did not write", async () => {
    const directory = tempDir();
    const store = new FileThreadStore({ directory });
    await store.set(key("shared-id", "alpha"), record("conversation-of-alpha"));
    expect(await store.get(key("shared-id", "beta"))).toBeUndefined();
    await store.set(key("shared-id", "beta"), record("conversation-of-beta"));
    expect(await store.get(key("shared-id", "alpha"))).toMatchObject({ conversationId: "conversation-of-alpha" });
    expect(await store.get(key("shared-id", "beta"))).toMatchObject({ conversationId: "conversation-of-beta" });
    await store.close();
  });

  it("refuses a record copied under another agent's name", async () => {
    const directory = tempDir();
    const store = new FileThreadStore({ directory });
    await store.set(key("t", "alpha"), record("c-alpha"));
    const source = join(directory, "ag-ui-threads", agentDigest("alpha"), `${threadDigest("t")}.json`);
    mkdirSync(join(directory, "ag-ui-threads", agentDigest("beta")), { recursive: true });
    writeFileSync(join(directory, "ag-ui-threads", agentDigest("beta"), `${threadDigest("t")}.json`), readFileSync(source));
    expect(await store.get(key("t", "beta"))).toBeUndefined();
    await store.close();
  });

  it("keeps digests, not text: a record of a 900 kB message is as small as one of 'hi'", async () => {
    const directory = tempDir();
    const store = new FileThreadStore({ directory });
    await store.set(key("big"), record("c", "x".repeat(900_000)));
    await store.set(key("small"), record("c", "hi"));
    const [bigSize, smallSize] = ["big", "small"].map((threadId) => readFileSync(join(directory, "ag-ui-threads", agentDigest("chat"), `${threadDigest(threadId)}.json`)).length);
    expect(bigSize).toBeLessThan(400);
    expect(Math.abs((bigSize ?? 0) - (smallSize ?? 0))).toBeLessThan(10);
    await store.close();
  });

  it("many writers on one save dir (several store instances, concurrent) never lose an entry", async () => {
    const directory = tempDir();
    const stores = [0, 1, 2, 3].map(() => new FileThreadStore({ directory }));
    await Promise.all(stores.flatMap((store, writer) => Array.from({ length: 50 }, (_, index) => store.set(key(`w${writer}-t${index}`, `agent-${writer % 2}`), record(`c${writer}-${index}`)))));
    const reader = new FileThreadStore({ directory });
    for (let writer = 0; writer < 4; writer += 1) {
      for (let index = 0; index < 50; index += 1) {
        expect(await reader.get(key(`w${writer}-t${index}`, `agent-${writer % 2}`))).toMatchObject({ conversationId: `c${writer}-${index}` });
      }
    }
    expect(threadFiles(directory, "agent-0").filter((name) => name.endsWith(".tmp"))).toEqual([]);
    await Promise.all([...stores, reader].map((store) => store.close()));
  });

  it("survives a failed write: nothing rejects, the failure is counted, and the next change writes it", async () => {
    const directory = tempDir();
    const warnings: string[] = [];
    const store = new FileThreadStore({ directory, logger: { warn: (_details, message) => warnings.push(message) } });
    await store.set(key("t0"), record("c0"));
    // The save dir made unwritable in a way that holds for root too: its thread directory is a file.
    const threads = join(directory, "ag-ui-threads");
    renameSync(threads, `${threads}.away`);
    writeFileSync(threads, "not a directory");
    await expect(store.set(key("t1"), record("c1"))).resolves.toBeUndefined();
    expect(store.stats()).toMatchObject({ writeFailures: 1, pendingWrites: 1 });
    expect(warnings).toContain("the thread map could not be written; retrying with the next change");
    // Still served from the pending change meanwhile; a thread never written reads as new, not as a failure.
    expect(await store.get(key("t1"))).toMatchObject({ conversationId: "c1" });
    expect(await store.get(key("never-written"))).toBeUndefined();
    rmSync(threads);
    renameSync(`${threads}.away`, threads);
    await store.set(key("t2"), record("c2"));
    // That change retried t1 beside its own write; the retry may end a moment after it.
    await vi.waitFor(() => expect(store.stats()).toMatchObject({ pendingWrites: 0, writeFailures: 1 }), { timeout: 10_000, interval: 10 });
    const reader = new FileThreadStore({ directory });
    for (const [threadId, conversationId] of [["t0", "c0"], ["t1", "c1"], ["t2", "c2"]] as const) {
      expect(await reader.get(key(threadId))).toMatchObject({ conversationId });
    }
    await Promise.all([store.close(), reader.close()]);
  });

  it("a write that fails because the target is a directory (EISDIR) is retried and never poisons later writes", async () => {
    const directory = tempDir();
    const store = new FileThreadStore({ directory });
    const target = join(directory, "ag-ui-threads", agentDigest("chat"), `${threadDigest("t")}.json`);
    mkdirSync(join(target, "blocker"), { recursive: true });
    await store.set(key("t"), record("c1"));
    expect(store.stats().writeFailures).toBeGreaterThanOrEqual(1);
    await store.set(key("other"), record("c-other"));
    expect(await new FileThreadStore({ directory }).get(key("other"))).toMatchObject({ conversationId: "c-other" });
    rmSync(target, { recursive: true });
    await store.set(key("other"), record("c-other-2"));
    // That change retried "t" beside its own write; the retry may end a moment after it.
    await vi.waitFor(() => expect(store.stats().pendingWrites).toBe(0), { timeout: 10_000, interval: 10 });
    expect(await new FileThreadStore({ directory }).get(key("t"))).toMatchObject({ conversationId: "c1" });
    await store.close();
  });

  it("ignores a torn or foreign file (a cold start, not a failure) and overwrites it on the next change", async () => {
    const directory = tempDir();
    const store = new FileThreadStore({ directory });
    const path = join(directory, "ag-ui-threads", agentDigest("chat"), `${threadDigest("t")}.json`);
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, '{"version":2,"agentId":"chat","thre');
    expect(await store.get(key("t"))).toBeUndefined();
    await store.set(key("t"), record("c"));
    expect(await store.get(key("t"))).toMatchObject({ conversationId: "c" });
    await store.close();
  });

  it("forgets threads past their time to live, and deletes on request", async () => {
    let now = 1_000;
    const directory = tempDir();
    const store = new FileThreadStore({ directory, ttlMs: 1_000, now: () => now });
    await store.set(key("t"), record("c"));
    await store.set(key("gone"), record("c"));
    await store.delete(key("gone"));
    expect(await store.get(key("gone"))).toBeUndefined();
    now = 5_000;
    expect(await store.get(key("t"))).toBeUndefined();
    await store.close();
  });

  it("writes a thread's record to two slot files in turn, in place, and reads the newest whole one: a torn slot gives the one before", async () => {
    const directory = tempDir();
    const store = new FileThreadStore({ directory });
    for (const conversationId of ["c1", "c2", "c3"]) await store.set(key("t"), record(conversationId));
    const path = join(directory, "ag-ui-threads", agentDigest("chat"), `${threadDigest("t")}.json`);
    expect(threadFiles(directory).sort()).toEqual([`${threadDigest("t")}.json`, `${threadDigest("t")}.json.1`]);
    // The third write went over the first slot: c3 there, c2 in the second.
    expect(JSON.parse(readFileSync(path, "utf8"))).toMatchObject({ serial: 3, conversationId: "c3", seal: 3 });
    expect(await new FileThreadStore({ directory }).get(key("t"))).toMatchObject({ conversationId: "c3" });
    // A write cut off halfway (the process killed mid-write) leaves that slot torn: the other one is read.
    const whole = readFileSync(path, "utf8");
    writeFileSync(path, whole.slice(0, Math.floor(whole.length / 2)));
    const reader = new FileThreadStore({ directory });
    expect(await reader.get(key("t"))).toMatchObject({ conversationId: "c2" });
    // Ends that disagree (a new beginning over an old end) are torn too, even when the text parses.
    writeFileSync(path, whole.replace('"seal":3', '"seal":1'));
    expect(await new FileThreadStore({ directory }).get(key("t"))).toMatchObject({ conversationId: "c2" });
    // The next write goes over the torn slot, never over the whole one.
    await reader.set(key("t"), record("c4"));
    expect(JSON.parse(readFileSync(path, "utf8"))).toMatchObject({ serial: 3, conversationId: "c4" });
    expect(await new FileThreadStore({ directory }).get(key("t"))).toMatchObject({ conversationId: "c4" });
    await Promise.all([store.close(), reader.close()]);
  });

  it("creates a slot a read found missing in place (no temporary file), overwrites one another writer made meanwhile, and reads a half-made one as missing", async () => {
    const directory = tempDir();
    const path = join(directory, "ag-ui-threads", agentDigest("chat"), `${threadDigest("t")}.json`);
    const store = new FileThreadStore({ directory });
    // The read finds neither slot (nor the agent's directory): the write makes both, no temporary file.
    expect(await store.get(key("t"))).toBeUndefined();
    await store.set(key("t"), record("c1"));
    expect(threadFiles(directory)).toEqual([`${threadDigest("t")}.json`]);
    expect(JSON.parse(readFileSync(path, "utf8"))).toMatchObject({ serial: 1, conversationId: "c1", seal: 1 });
    // Another writer makes the second slot after this store saw it missing: the next write goes over it.
    const other = new FileThreadStore({ directory });
    await other.set(key("elsewhere"), record("x"));
    writeFileSync(`${path}.1`, "{}");
    await store.set(key("t"), record("c2"));
    expect(JSON.parse(readFileSync(`${path}.1`, "utf8"))).toMatchObject({ serial: 2, conversationId: "c2", seal: 2 });
    // A slot created but cut off before its text (a writer killed mid-create) is read as missing.
    const fresh = join(directory, "ag-ui-threads", agentDigest("chat"), `${threadDigest("u")}.json`);
    writeFileSync(fresh, '{"serial":1,"conversationId":"half');
    const reader = new FileThreadStore({ directory });
    expect(await reader.get(key("u"))).toBeUndefined();
    await reader.set(key("u"), record("u1"));
    expect(await new FileThreadStore({ directory }).get(key("u"))).toMatchObject({ conversationId: "u1" });
    expect(threadFiles(directory).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    await Promise.all([store.close(), other.close(), reader.close()]);
  });

  it("reads a record written before slots, and writes the next one beside it", async () => {
    const directory = tempDir();
    const path = join(directory, "ag-ui-threads", agentDigest("chat"), `${threadDigest("t")}.json`);
    mkdirSync(join(path, ".."), { recursive: true });
    const legacy = { version: 2, agentId: "chat", thread: threadDigest("t"), conversationId: "old", forwarded: [], toolSignature: "sig", updatedAt: Date.now() };
    writeFileSync(path, JSON.stringify(legacy));
    const store = new FileThreadStore({ directory });
    expect(await store.get(key("t"))).toMatchObject({ conversationId: "old" });
    await store.set(key("t"), record("new"));
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual(legacy);
    expect(await new FileThreadStore({ directory }).get(key("t"))).toMatchObject({ conversationId: "new" });
    await store.delete(key("t"));
    expect(threadFiles(directory)).toEqual([]);
    await store.close();
  });

  it.skipIf(!existsSync("/proc/self/fd"))("keeps the slot files of threads written lately open between writes, a bounded number, and closes them on delete, clean-up, a read and close (needs /proc/self/fd)", async () => {
    const directory = tempDir();
    const store = new FileThreadStore({ directory, maxThreads: 1_000, pruneEveryWrites: 1_000_000 });
    const forwarded = Array.from({ length: 30 }, (_, index) => fingerprintMessage(`u${index}`, `message ${index}`));
    // Every turn writes the thread's record (its history growing, then shrinking): the same two files stay open.
    for (let turn = 1; turn <= 30; turn += 1) await store.set(key("t"), { conversationId: "c", forwarded: forwarded.slice(0, turn), toolSignature: "sig" });
    for (let turn = 29; turn >= 25; turn -= 1) await store.set(key("t"), { conversationId: "c", forwarded: forwarded.slice(0, turn), toolSignature: "sig" });
    expect(openFilesUnder(directory).sort()).toEqual(threadFiles(directory).map((name) => join(directory, "ag-ui-threads", agentDigest("chat"), name)).sort());
    // Each slot holds exactly its last write (a shorter record was cut to its length), readable by another reader.
    expect(await new FileThreadStore({ directory }).get(key("t"))).toMatchObject({ forwarded: forwarded.slice(0, 25) });
    for (const name of threadFiles(directory)) expect(() => JSON.parse(readFileSync(join(directory, "ag-ui-threads", agentDigest("chat"), name), "utf8")) as unknown).not.toThrow();
    // Many threads: a bounded number stay open.
    for (let index = 0; index < 150; index += 1) await store.set(key(`many-${index}`), record(`c${index}`));
    const open = openFilesUnder(directory).length;
    expect(open).toBeGreaterThan(0);
    expect(open).toBeLessThanOrEqual(128);
    // A delete closes the thread's files before removing them.
    await store.set(key("gone"), record("c"));
    await store.delete(key("gone"));
    expect(openFilesUnder(directory).filter((path) => path.includes(threadDigest("gone")))).toEqual([]);
    // A read opens them again later (another process may have made them anew): nothing of the thread stays open.
    await store.set(key("read"), record("c1"));
    await store.get(key("read"));
    expect(openFilesUnder(directory).filter((path) => path.includes(threadDigest("read")))).toEqual([]);
    await store.set(key("read"), record("c2"));
    expect(await new FileThreadStore({ directory }).get(key("read"))).toMatchObject({ conversationId: "c2" });
    // The clean-up closes what it removes.
    const pruning = new FileThreadStore({ directory: tempDir(), maxThreads: 2, pruneEveryWrites: 1_000_000 });
    for (let index = 0; index < 5; index += 1) await pruning.set(key(`p${index}`), record(`c${index}`));
    await pruning.prune();
    expect(openFilesUnder(directories.at(-1) as string)).toHaveLength(2);
    await Promise.all([store.close(), pruning.close()]);
    expect(openFilesUnder(directory)).toEqual([]);
    expect(openFilesUnder(directories.at(-1) as string)).toEqual([]);
  });

  it("prunes the oldest threads beyond maxThreads, and temporary files of dead writers", async () => {
    const directory = tempDir();
    const store = new FileThreadStore({ directory, maxThreads: 10, pruneEveryWrites: 1_000_000 });
    for (let index = 0; index < 30; index += 1) await store.set(key(`t${index}`), record(`c${index}`));
    const orphan = join(directory, "ag-ui-threads", agentDigest("chat"), `x.json.1.dead.tmp`);
    writeFileSync(orphan, "{");
    utimesSync(orphan, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    // A thread written twice has two slot files: still one thread, the most recently updated here.
    await store.set(key("t29"), record("c29-again"));
    const later = new Date(Date.now() + 60_000);
    for (const name of threadFiles(directory).filter((file) => file.startsWith(threadDigest("t29")))) utimesSync(join(directory, "ag-ui-threads", agentDigest("chat"), name), later, later);
    await store.prune();
    expect(threadFiles(directory)).toHaveLength(11);
    expect(store.stats().rememberedThreads).toBe(10);
    expect(await store.get(key("t29"))).toMatchObject({ conversationId: "c29-again" });
    await store.close();
  });

  it("keeps owners with their threads: a restart changes no owner, a claim is atomic across the stores of several processes", async () => {
    const directory = tempDir();
    const before = new FileThreadStore({ directory });
    expect(await before.claim(key("t1"), "alice")).toBe("claimed");
    await before.set(key("t1"), { ...record("c1"), summary: { threadId: "t1", firstUserMessage: "my first message" } });
    await before.close();
    const after = new FileThreadStore({ directory });
    expect(await after.claim(key("t1"), "mallory")).toBe("refused");
    expect(await after.claim(key("t1"), "alice")).toBe("owned");
    expect(await after.get(key("t1"))).toMatchObject({ conversationId: "c1", owner: "alice" });
    // The same thread id on another agent is another thread.
    expect(await after.claim(key("t1", "research"), "mallory")).toBe("claimed");
    const stores = Array.from({ length: 4 }, () => new FileThreadStore({ directory }));
    for (let thread = 0; thread < 10; thread += 1) {
      const results = await Promise.all(stores.flatMap((store, index) => [store.claim(key(`c${thread}`), `user-${index}`), store.claim(key(`c${thread}`), `user-${index + 10}`)]));
      expect(results.filter((result) => result === "claimed")).toHaveLength(1);
      expect(results.filter((result) => result === "refused")).toHaveLength(7);
    }
    await Promise.all([after, ...stores].map((store) => store.close()));
  });

  it("lists an owner's threads, the most recently active first, with their first message; never another's", async () => {
    let now = 1_000_000;
    const directory = tempDir();
    const store = new FileThreadStore({ directory, now: () => now });
    for (const [threadId, owner] of [["a", "alice"], ["b", "alice"], ["m", "mallory"]] as const) {
      await store.claim(key(threadId), owner);
      now += 1_000;
      await store.set(key(threadId), { ...record(`c-${threadId}`), summary: { threadId, firstUserMessage: `first of ${threadId}` } });
    }
    now += 1_000;
    await store.set(key("a"), { ...record("c-a"), summary: { threadId: "a", firstUserMessage: "first of a" } });
    expect(await store.listByOwner("chat", "alice", { limit: 10 })).toEqual([
      { threadId: "a", lastActivityAt: now, firstUserMessage: "first of a" },
      { threadId: "b", lastActivityAt: now - 2_000, firstUserMessage: "first of b" },
    ]);
    expect(await store.listByOwner("chat", "alice", { limit: 1 })).toHaveLength(1);
    expect(await store.listByOwner("research", "alice", { limit: 10 })).toEqual([]);
    expect((await store.listByOwner("chat", "mallory", { limit: 10 })).map((listing) => listing.threadId)).toEqual(["m"]);
    await store.close();
  });

  it("undoes a claim only while the thread has no conversation; an expired thread goes whole, so a new owner never inherits its conversation", async () => {
    let now = 1_000_000;
    const directory = tempDir();
    const store = new FileThreadStore({ directory, ttlMs: 60_000, now: () => now });
    await store.claim(key("refused-first-run"), "alice");
    await store.releaseClaim(key("refused-first-run"), "alice");
    expect(await store.claim(key("refused-first-run"), "bob")).toBe("claimed");
    await store.claim(key("old"), "alice");
    await store.set(key("old"), record("c-old"));
    await store.releaseClaim(key("old"), "alice");
    expect(await store.claim(key("old"), "bob")).toBe("refused");
    // Past the time to live (the owner's file aged with it): the thread is forgotten whole.
    now += 120_000;
    const longAgo = new Date(now - 120_000);
    for (const name of threadFiles(directory)) if (name.startsWith(threadDigest("old"))) utimesSync(join(directory, "ag-ui-threads", agentDigest("chat"), name), longAgo, longAgo);
    expect(await store.claim(key("old"), "bob")).toBe("claimed");
    expect(await store.get(key("old"))).toMatchObject({ owner: "bob" });
    expect((await store.get(key("old")))?.conversationId).toBeUndefined();
    await store.close();
  });

  it("keeps a thread's transcript, cut to its bound, across instances; a prune removes a thread's every file", async () => {
    const directory = tempDir();
    const before = new FileThreadStore({ directory, maxTranscriptBytes: 1_000 });
    const messages = Array.from({ length: 30 }, (_, index) => ({ id: `m${index}`, role: "user" as const, content: `message ${index} ${"x".repeat(40)}` }));
    await before.setTranscript(key("t"), { messages, state: { done: true }, omittedMessages: 0 });
    await before.claim(key("t"), "alice");
    await before.set(key("t"), record("c"));
    await before.close();
    const after = new FileThreadStore({ directory, maxThreads: 1 });
    const kept = await after.getTranscript(key("t"));
    expect(kept?.messages.at(-1)).toEqual(messages.at(-1));
    expect((kept?.messages.length ?? 0) + (kept?.omittedMessages ?? 0)).toBe(30);
    expect(await after.getTranscript(key("t", "beta"))).toBeUndefined();
    expect(threadFiles(directory).sort()).toEqual([`${threadDigest("t")}.json`, `${threadDigest("t")}.owner`, `${threadDigest("t")}.transcript.json`, "owners"].sort());
    // A second thread written later pushes the first out of a store of one: all its files go.
    await after.set(key("u"), record("c-u"));
    await after.prune();
    expect(threadFiles(directory).filter((name) => name.startsWith(threadDigest("t")))).toEqual([]);
    await after.close();
  });
});

