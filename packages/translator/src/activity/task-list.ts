import type { TaskItem, TaskListContent } from "./activity-types.js";

/*
 * What a `manage_task` call changes, read from its arguments. No public source says which argument
 * names the harness gives the model for this tool, so the reading is tolerant: the first of several
 * plausible names wins, and an update that names no task changes nothing (docs/protocol.md, "Steps").
 */
const ID_NAMES = ["id", "task_id", "taskId"];
const TITLE_NAMES = ["title", "task", "name", "description", "content", "summary", "text", "task_name", "taskName"];
const STATUS_NAMES = ["status", "state", "task_status", "taskStatus"];
const ACTION_NAMES = ["action", "operation", "op", "command"];
const LIST_NAMES = ["tasks", "todos", "items"];
const REMOVALS = new Set(["delete", "remove", "deleted", "removed", "drop"]);

/** The most tasks one list keeps; an agent that keeps adding loses its oldest first. */
export const MAX_TASKS = 200;
/** Titles and statuses are cut to this many characters. */
const MAX_TEXT = 500;

/**
 * The agent's task list across its `manage_task` calls: each call adds a task or updates (or
 * removes) the one with the same id, else the same title. Lives as long as the conversation.
 */
export class TaskList {
  readonly #tasks: TaskItem[] = [];
  #numbered = 0;

  /** Applies one call's arguments; true when the list changed. */
  apply(argumentsOf: Record<string, unknown>): boolean {
    const listed = LIST_NAMES.map((name) => argumentsOf[name]).find(Array.isArray);
    if (listed !== undefined) {
      let changed = false;
      for (const entry of listed) if (isRecord(entry) && this.#applyOne(entry)) changed = true;
      return changed;
    }
    return this.#applyOne(argumentsOf);
  }

  get content(): TaskListContent {
    return { tasks: this.#tasks.map((task) => ({ ...task })) };
  }

  get size(): number {
    return this.#tasks.length;
  }

  #applyOne(argumentsOf: Record<string, unknown>): boolean {
    const id = firstText(argumentsOf, ID_NAMES);
    const title = firstText(argumentsOf, TITLE_NAMES);
    const status = firstText(argumentsOf, STATUS_NAMES);
    const action = firstText(argumentsOf, ACTION_NAMES)?.toLowerCase();
    const index = this.#tasks.findIndex((task) => (id !== undefined ? task.id === id : title !== undefined && task.title === title));
    const removal = (action !== undefined && REMOVALS.has(action)) || (status !== undefined && REMOVALS.has(status.toLowerCase()));
    if (removal) {
      if (index < 0) return false;
      this.#tasks.splice(index, 1);
      return true;
    }
    if (index >= 0) {
      const task = this.#tasks[index] as TaskItem;
      const next = { ...task, ...(title === undefined ? {} : { title }), ...(status === undefined ? {} : { status }) };
      if (next.title === task.title && next.status === task.status) return false;
      this.#tasks[index] = next;
      return true;
    }
    if (title === undefined) return false;
    this.#numbered += 1;
    this.#tasks.push({ id: id ?? `task-${this.#numbered}`, title, status: status ?? "pending" });
    if (this.#tasks.length > MAX_TASKS) this.#tasks.splice(0, this.#tasks.length - MAX_TASKS);
    return true;
  }
}

function firstText(record: Record<string, unknown>, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = record[name];
    if (typeof value === "string" && value.trim() !== "") return value.trim().slice(0, MAX_TEXT);
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
