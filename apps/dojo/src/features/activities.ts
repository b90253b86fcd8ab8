import type { Message } from "@ag-ui/client";
import { isRecord, stringArray } from "../agent/json";

/*
 * The ACTIVITY messages the Antigravity agent sends for the harness's own work (the translator
 * README's "Activities"), read defensively: an activity is whatever its content says, and a field
 * missing or of another type is treated as absent.
 */

export interface AgentTask {
  id: string;
  title: string;
  status: string;
  /** The status, read: the page draws done, running and waiting tasks differently. */
  state: "done" | "running" | "waiting";
}

/** Task statuses as the model may write them, by how they are drawn. */
const DONE = /^(done|complete(d)?|finished|closed)$/i;
const RUNNING = /^(in[ _-]?progress|running|active|started|doing)$/i;

export function tasksOf(content: unknown): AgentTask[] {
  const tasks = isRecord(content) ? content["tasks"] : undefined;
  if (!Array.isArray(tasks)) return [];
  return tasks.filter(isRecord).map((task, index) => {
    const status = typeof task["status"] === "string" ? task["status"] : "pending";
    return {
      id: typeof task["id"] === "string" ? task["id"] : `task-${index + 1}`,
      title: typeof task["title"] === "string" ? task["title"] : "",
      status,
      state: DONE.test(status) ? "done" : RUNNING.test(status) ? "running" : "waiting",
    };
  });
}

/** The thread's task list as the newest `antigravity.tasks` activity has it (each holds the whole list). */
export function latestTasks(messages: readonly Message[]): AgentTask[] {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role === "activity" && message.activityType === "antigravity.tasks") return tasksOf(message.content);
  }
  return [];
}

export interface CommandOutput {
  toolName: string;
  command: string | undefined;
  text: string;
  running: boolean;
  exitCode: number | undefined;
  truncated: boolean;
}

export function commandOutputOf(content: unknown): CommandOutput {
  const record = isRecord(content) ? content : {};
  return {
    toolName: typeof record["toolName"] === "string" ? record["toolName"] : "command",
    command: typeof record["command"] === "string" ? record["command"] : undefined,
    text: stringArray(record["chunks"]).join(""),
    running: record["running"] === true,
    exitCode: typeof record["exitCode"] === "number" ? record["exitCode"] : undefined,
    truncated: record["truncated"] === true,
  };
}

/** A duration for people: `1.5 s`, `5 min`, `2 h`. */
export function durationText(milliseconds: number): string {
  if (milliseconds < 60_000) return `${Number((milliseconds / 1_000).toFixed(1))} s`;
  if (milliseconds < 3_600_000) return `${Math.round(milliseconds / 60_000)} min`;
  return `${Math.round(milliseconds / 3_600_000)} h`;
}

/** One line saying what a schedule activity announced. */
export function scheduleText(content: unknown): string {
  const record = isRecord(content) ? content : {};
  const prompt = typeof record["prompt"] === "string" ? `“${record["prompt"]}”` : "a turn";
  const when =
    typeof record["delayMs"] === "number" ? ` in ${durationText(record["delayMs"])}` : typeof record["at"] === "string" ? ` at ${record["at"]}` : "";
  return `Scheduled ${prompt}${when}`;
}
