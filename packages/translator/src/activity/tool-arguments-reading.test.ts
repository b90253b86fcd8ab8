import { describe, expect, it } from "vitest";
import { scheduleRequestOf } from "./schedule-arguments.js";
import { MAX_TASKS, TaskList } from "./task-list.js";

describe("reading a schedule call", () => {
  it.each([
    [{ prompt: "check the build", delay_ms: 300 }, { prompt: "check the build", delayMs: 300 }],
    [{ message: "stand up", delay_seconds: "90" }, { prompt: "stand up", delayMs: 90_000 }],
    [{ task: "ping", minutes: 5 }, { prompt: "ping", delayMs: 300_000 }],
    [{ prompt: "later", delay: "2h" }, { prompt: "later", delayMs: 7_200_000 }],
    [{ prompt: "later", in: "PT1M30S" }, { prompt: "later", delayMs: 90_000 }],
    [{ prompt: "at noon", at: "2030-01-01T12:00:00Z" }, { prompt: "at noon", at: "2030-01-01T12:00:00Z" }],
    [{ prompt: "no time" }, { prompt: "no time" }],
    [{ prompt: "nonsense", delay: "soon", delay_ms: -5 }, { prompt: "nonsense" }],
  ])("reads %j", (argumentsOf, expected) => {
    expect(scheduleRequestOf(argumentsOf)).toEqual(expected);
  });
});

describe("the task list's reading of manage_task", () => {
  it("updates by id before title, keeps the status as written, and keeps at most MAX_TASKS, dropping the oldest", () => {
    const list = new TaskList();
    expect(list.apply({ id: 7, title: "first" })).toBe(true);
    expect(list.apply({ id: 7, status: "blocked" })).toBe(true);
    expect(list.apply({ id: 7, status: "blocked" })).toBe(false);
    expect(list.content.tasks).toEqual([{ id: "7", title: "first", status: "blocked" }]);
    for (let index = 0; index < MAX_TASKS; index += 1) list.apply({ title: `task ${index}` });
    expect(list.size).toBe(MAX_TASKS);
    expect(list.content.tasks[0]?.title).toBe("task 0");
  });
});
