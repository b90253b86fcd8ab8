import type { Message } from "@ag-ui/client";
import { describe, expect, it } from "vitest";
import { commandOutputOf, durationText, latestTasks, scheduleText, tasksOf } from "../../src/features/activities.js";

describe("activities", () => {
  it("reads a task list, drawing each status as done, running or waiting, and tolerating junk", () => {
    expect(tasksOf({ tasks: [{ id: "a", title: "Ship", status: "done" }, { title: "Test", status: "in progress" }, { title: "Wait" }, 7] })).toEqual([
      { id: "a", title: "Ship", status: "done", state: "done" },
      { id: "task-2", title: "Test", status: "in progress", state: "running" },
      { id: "task-3", title: "Wait", status: "pending", state: "waiting" },
    ]);
    expect(tasksOf(undefined)).toEqual([]);
    expect(tasksOf({ tasks: "many" })).toEqual([]);
  });

  it("takes the newest task list of a thread (each activity holds the whole list)", () => {
    const messages: Message[] = [
      { id: "1", role: "activity", activityType: "antigravity.tasks", content: { tasks: [{ id: "a", title: "Old", status: "pending" }] } },
      { id: "2", role: "assistant", content: "ok" },
      { id: "3", role: "activity", activityType: "antigravity.tasks", content: { tasks: [{ id: "a", title: "New", status: "done" }] } },
      { id: "4", role: "activity", activityType: "antigravity.schedule", content: {} },
    ];
    expect(latestTasks(messages).map((task) => task.title)).toEqual(["New"]);
    expect(latestTasks([])).toEqual([]);
  });

  it("joins a command's output chunks and says how it ended", () => {
    expect(commandOutputOf({ toolName: "run_command", command: "make", chunks: ["a\n", "b\n"], running: false, exitCode: 0 })).toEqual({
      toolName: "run_command",
      command: "make",
      text: "a\nb\n",
      running: false,
      exitCode: 0,
      truncated: false,
    });
    expect(commandOutputOf(null)).toMatchObject({ text: "", running: false, exitCode: undefined });
  });

  it("says when a scheduled turn is due", () => {
    expect(scheduleText({ prompt: "check on the release", delayMs: 1500 })).toBe("Scheduled “check on the release” in 1.5 s");
    expect(scheduleText({ at: "tomorrow 9:00" })).toBe("Scheduled a turn at tomorrow 9:00");
    expect([durationText(300_000), durationText(7_200_000)]).toEqual(["5 min", "2 h"]);
  });
});
