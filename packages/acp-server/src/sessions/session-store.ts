import { appendFile, mkdir, readFile, rename, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { z } from "zod/v4";
import { SESSION_MODE_IDS, type SessionModeId } from "../permissions/session-modes.js";

/** Session ids are harness conversation ids: letters, digits, - and _ (anything else is refused before it nears a path). */
const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
/** A session's transcript keeps its newest updates within this many bytes. */
export const MAX_TRANSCRIPT_BYTES = 8 * 1024 * 1024;
/** One update larger than this is kept as a short note instead (an image pasted into a prompt). */
const MAX_UPDATE_BYTES = 256 * 1024;

/** What is kept of a session between server processes (its conversation is the harness's own). */
export interface SessionRecord {
  sessionId: string;
  cwd: string;
  additionalDirectories: string[];
  modeId: SessionModeId;
  /** Permission keys the user chose "always" for, allowed without asking (permission-gate.ts). */
  alwaysAllowed: string[];
  createdAt: string;
  updatedAt: string;
}

const recordSchema = z.object({
  sessionId: z.string().regex(SESSION_ID_PATTERN),
  cwd: z.string(),
  additionalDirectories: z.array(z.string()).default([]),
  modeId: z.enum(SESSION_MODE_IDS).catch("ask"),
  alwaysAllowed: z.array(z.string()).default([]),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** True for an id this server could have given out. */
export function isValidSessionId(sessionId: string): boolean {
  return SESSION_ID_PATTERN.test(sessionId);
}

const droppedNote: SessionUpdate = { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "(Earlier messages of this session were not kept.)\n\n" } };

/**
 * Session records and transcripts, one pair of files per session under `directory` (owner-only
 * permissions: transcripts hold the user's code). The transcript is JSON lines of the updates
 * `session/load` replays; it keeps its newest updates within MAX_TRANSCRIPT_BYTES.
 */
export class SessionStore {
  readonly directory: string;

  constructor(directory: string) {
    this.directory = directory;
  }

  async read(sessionId: string): Promise<SessionRecord | undefined> {
    if (!isValidSessionId(sessionId)) return undefined;
    let text: string;
    try {
      text = await readFile(this.#recordPath(sessionId), "utf8");
    } catch {
      return undefined;
    }
    try {
      const parsed = recordSchema.safeParse(JSON.parse(text));
      return parsed.success && parsed.data.sessionId === sessionId ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  async write(record: SessionRecord): Promise<void> {
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const path = this.#recordPath(record.sessionId);
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(record), { mode: 0o600 });
    await rename(temporary, path);
  }

  /** Appends a prompt's updates; trims the oldest when the transcript outgrows its bound. */
  async append(sessionId: string, updates: readonly SessionUpdate[]): Promise<void> {
    if (updates.length === 0) return;
    await mkdir(this.directory, { recursive: true, mode: 0o700 });
    const path = this.#transcriptPath(sessionId);
    await appendFile(path, updates.map((update) => `${boundedLine(update)}\n`).join(""), { mode: 0o600 });
    const size = (await stat(path)).size;
    if (size > MAX_TRANSCRIPT_BYTES) await this.#trim(path);
  }

  /** The transcript's updates, oldest first; lines that do not parse are skipped. */
  async transcript(sessionId: string): Promise<SessionUpdate[]> {
    if (!isValidSessionId(sessionId)) return [];
    let text: string;
    try {
      text = await readFile(this.#transcriptPath(sessionId), "utf8");
    } catch {
      return [];
    }
    return text.split("\n").flatMap((line) => {
      if (line === "") return [];
      try {
        const update = JSON.parse(line) as unknown;
        return typeof update === "object" && update !== null && typeof (update as { sessionUpdate?: unknown }).sessionUpdate === "string" ? [update as SessionUpdate] : [];
      } catch {
        return [];
      }
    });
  }

  async #trim(path: string): Promise<void> {
    const lines = (await readFile(path, "utf8")).split("\n").filter((line) => line !== "");
    const kept: string[] = [];
    let bytes = 0;
    for (let index = lines.length - 1; index >= 0; index -= 1) {
      const line = lines[index] ?? "";
      bytes += Buffer.byteLength(line) + 1;
      if (bytes > MAX_TRANSCRIPT_BYTES / 2) break;
      kept.unshift(line);
    }
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, [JSON.stringify(droppedNote), ...kept].map((line) => `${line}\n`).join(""), { mode: 0o600 });
    await rename(temporary, path);
  }

  #recordPath(sessionId: string): string {
    return join(this.directory, `${sessionId}.json`);
  }

  #transcriptPath(sessionId: string): string {
    return join(this.directory, `${sessionId}.updates.jsonl`);
  }
}

function boundedLine(update: SessionUpdate): string {
  const line = JSON.stringify(update);
  if (Buffer.byteLength(line) <= MAX_UPDATE_BYTES) return line;
  const note: SessionUpdate = {
    sessionUpdate: update.sessionUpdate === "user_message_chunk" ? "user_message_chunk" : "agent_message_chunk",
    content: { type: "text", text: "(content too large to keep)" },
  };
  return JSON.stringify(note);
}
