import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod/v4";
import type { StepUpdate } from "../wire/output-messages.js";

/** Token counts per trajectory, as plain numbers (rendered to uint64 strings on the wire). */
export interface UsageCounts {
  prompt: number;
  candidates: number;
  thoughts: number;
}

/** What the emulator keeps of a conversation between processes. The format is the emulator's own. */
export interface StoredConversation {
  cascadeId: string;
  history: StepUpdate[];
  usage: Record<string, UsageCounts>;
}

const storedSchema = z.looseObject({
  cascadeId: z.string(),
  history: z.array(z.looseObject({})),
  usage: z.record(z.string(), z.object({ prompt: z.number(), candidates: z.number(), thoughts: z.number() })).default({}),
});

const idPattern = /^[A-Za-z0-9._-]{1,200}$/;

/**
 * One JSON file per conversation under the InputConfig storage directory. Writes go through a temp
 * file and a rename so a crash mid-write never leaves a half conversation behind.
 */
export class ConversationStore {
  readonly directory: string;

  constructor(directory: string) {
    this.directory = directory;
  }

  #path(cascadeId: string): string | undefined {
    return idPattern.test(cascadeId) ? join(this.directory, "conversations", `${cascadeId}.json`) : undefined;
  }

  load(cascadeId: string): StoredConversation | undefined {
    const path = this.#path(cascadeId);
    if (path === undefined) return undefined;
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      return undefined;
    }
    const parsed = storedSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return undefined;
    return { cascadeId: parsed.data.cascadeId, history: parsed.data.history as StepUpdate[], usage: parsed.data.usage };
  }

  save(conversation: StoredConversation): void {
    const path = this.#path(conversation.cascadeId);
    if (path === undefined) return;
    mkdirSync(join(this.directory, "conversations"), { recursive: true });
    const temporary = `${path}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(conversation));
    renameSync(temporary, path);
  }
}
