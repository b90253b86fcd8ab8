import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isValidSessionId, MAX_TRANSCRIPT_BYTES, SessionStore } from "./session-store.js";

const directories: string[] = [];
const store = (): SessionStore => {
  const directory = mkdtempSync(join(tmpdir(), "acp-store-"));
  directories.push(directory);
  return new SessionStore(join(directory, "sessions"));
};
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

const record = { sessionId: "abc-1", cwd: "/w", additionalDirectories: [], modeId: "ask" as const, alwaysAllowed: ["edit"], createdAt: "t", updatedAt: "t" };

describe("SessionStore", () => {
  it("keeps records and transcripts, and never reads a path an id could smuggle in", async () => {
    const sessions = store();
    expect(isValidSessionId("../etc/passwd")).toBe(false);
    expect(await sessions.read("../etc/passwd")).toBeUndefined();
    expect(await sessions.read("missing")).toBeUndefined();
    await sessions.write(record);
    expect(await sessions.read("abc-1")).toEqual(record);
    await sessions.append("abc-1", [{ sessionUpdate: "user_message_chunk", content: { type: "text", text: "hi" } }]);
    await sessions.append("abc-1", [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hello" } }]);
    writeFileSync(join(sessions.directory, "abc-1.updates.jsonl"), `${readFileSync(join(sessions.directory, "abc-1.updates.jsonl"), "utf8")}not json\n`);
    expect((await sessions.transcript("abc-1")).map((update) => update.sessionUpdate)).toEqual(["user_message_chunk", "agent_message_chunk"]);
  });

  it("keeps a transcript's newest updates within its bound", async () => {
    const sessions = store();
    const big = "x".repeat(200 * 1024);
    for (let index = 0; index < 50; index += 1) await sessions.append("s", [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `${index}:${big}` } }]);
    const kept = await sessions.transcript("s");
    const texts = kept.map((update) => (update as { content: { text: string } }).content.text);
    expect(texts[0]).toContain("were not kept");
    expect(texts.at(-1)?.startsWith("49:")).toBe(true);
    expect(texts.length).toBeLessThan(50);
    expect(readFileSync(join(sessions.directory, "s.updates.jsonl")).length).toBeLessThanOrEqual(MAX_TRANSCRIPT_BYTES);
  });
});
