import type { Interrupt, Message, State } from "@ag-ui/client";
import { isRecord } from "./json";

/**
 * Threads are kept in localStorage so a visitor can continue one later, including a parked run:
 * its open interrupts are stored with it, so the answer form comes back too. The server keeps its
 * own session per thread id; this is only the browser's copy of the conversation.
 */
export interface StoredThread {
  threadId: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  messages: Message[];
  state: State;
  pendingInterrupts: Interrupt[];
  /** Tool calls whose approval the user refused (absent in threads stored before it existed). */
  deniedToolCallIds?: string[];
  /** True when the last run parked on the user (an interrupt or an interactive frontend tool). */
  waiting: boolean;
}

const storagePrefix = "agui-dojo.v1";
const maximumThreadsPerFeature = 20;

function threadsKey(featureId: string): string {
  return `${storagePrefix}.threads.${featureId}`;
}

function currentKey(featureId: string): string {
  return `${storagePrefix}.current.${featureId}`;
}

/** Storage can be full, disabled or hold garbage from an older version; none of that may break the page. */
function readJson(key: string): unknown {
  try {
    const text = localStorage.getItem(key);
    return text === null ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

function writeJson(key: string, value: unknown): void {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Quota exceeded or storage disabled: the thread simply is not remembered.
  }
}

export function listThreads(featureId: string): StoredThread[] {
  const stored = readJson(threadsKey(featureId));
  if (!Array.isArray(stored)) return [];
  return stored
    .filter((thread): thread is StoredThread => isRecord(thread) && typeof thread["threadId"] === "string" && Array.isArray(thread["messages"]))
    .sort((left, right) => right.updatedAt - left.updatedAt);
}

export function findThread(featureId: string, threadId: string): StoredThread | undefined {
  return listThreads(featureId).find((thread) => thread.threadId === threadId);
}

export function saveThread(featureId: string, thread: StoredThread): void {
  const others = listThreads(featureId).filter((existing) => existing.threadId !== thread.threadId);
  writeJson(threadsKey(featureId), [thread, ...others].slice(0, maximumThreadsPerFeature));
}

export function loadCurrentThreadId(featureId: string): string | undefined {
  const stored = readJson(currentKey(featureId));
  return typeof stored === "string" ? stored : undefined;
}

export function saveCurrentThreadId(featureId: string, threadId: string): void {
  writeJson(currentKey(featureId), threadId);
}

/** A thread's title: the start of its first user message. */
export function titleFor(messages: readonly Message[]): string {
  for (const message of messages) {
    if (message.role !== "user") continue;
    const text = typeof message.content === "string" ? message.content : message.content.map((part) => (part.type === "text" ? part.text : "")).join(" ");
    if (text.trim() !== "") return text.trim().slice(0, 60);
  }
  return "New thread";
}
