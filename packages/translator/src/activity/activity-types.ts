/**
 * The `activityType` of every ACTIVITY_SNAPSHOT / ACTIVITY_DELTA the translator sends: live work of
 * the harness that is neither the assistant's words nor a tool's result. A client renders the
 * types it knows and may ignore the others (they stay in its message list as `role: "activity"`).
 *
 * @example
 * if (message.role === "activity" && message.activityType === ACTIVITY_TYPES.tasks) renderTasks(message.content as TaskListContent);
 */
export const ACTIVITY_TYPES = {
  /** The agent's task list, from its `manage_task` calls (harness 0.1.13+): {@link TaskListContent}. */
  tasks: "antigravity.tasks",
  /** The harness compacted the context (summary from harness 0.1.14): {@link CompactionContent}. */
  compaction: "antigravity.compaction",
  /** A STOP hook made the agent go on instead of stopping (harness 0.1.16+): {@link ContinuationContent}. */
  continuation: "antigravity.continuation",
  /** The output of `run_command` / `run_workflow` while it runs: {@link CommandOutputContent}. */
  commandOutput: "antigravity.command_output",
  /** The agent scheduled a later turn with its `schedule` tool (harness 0.1.13+): {@link ScheduleContent}. */
  schedule: "antigravity.schedule",
} as const;

/** One of {@link ACTIVITY_TYPES}. */
export type ActivityType = (typeof ACTIVITY_TYPES)[keyof typeof ACTIVITY_TYPES];

/** One task of the agent's list. */
export interface TaskItem {
  /** The harness's id for the task, else one the translator numbered (`task-1`, ...). */
  id: string;
  /** What the task is, as the model wrote it (trimmed, at most 500 characters); a task is never added without one. */
  title: string;
  /** As the model wrote it (`pending`, `in progress`, `done`, ...); `pending` when it gave none. */
  status: string;
}

/** `antigravity.tasks`: the whole list as it stands, oldest task first. */
export interface TaskListContent {
  /** Every task still on the list, oldest first; at most 200, the oldest dropped first past that. */
  tasks: TaskItem[];
}

/** `antigravity.compaction`: what the harness says about a compaction of the context. */
export interface CompactionContent {
  /** The harness's note on the step (`Context compaction`). */
  text: string;
  /** The summary that replaced the compacted context, once the ON_COMPACTION hook told it. */
  summary?: string;
}

/** `antigravity.continuation`: the agent was about to stop and the STOP hook made it go on. */
export interface ContinuationContent {
  /** 1 for the first continuation of the turn, 2 for the next, ... */
  continuation: number;
  /** What the agent was told to do next. */
  reason: string;
  /** The most continuations the host allows in one turn, when it set a bound. */
  maxContinuations?: number;
}

/** `antigravity.command_output`: a command's output so far, streamed while it runs. */
export interface CommandOutputContent {
  /** The TOOL_CALL_START this output belongs to. */
  toolCallId: string;
  /** `run_command` or `run_workflow`. */
  toolName: string;
  /** The command line, or the workflow's script path or description. */
  command?: string;
  /** The output in arrival order: join them for the text. Deltas append to it. */
  chunks: string[];
  /** True while the command runs; false once its step ended (done or failed). */
  running: boolean;
  /** The command's exit code once it ended, when its step reported one. */
  exitCode?: number;
  /** Set when the output grew past the translator's bound (64 KiB); the rest is in the tool's result. */
  truncated?: boolean;
}

/** `antigravity.schedule`: a turn the agent asked the harness to start later, as its arguments said. */
export interface ScheduleContent {
  /** The `schedule` call's card (its TOOL_CALL_START), when the call's step was seen. */
  toolCallId?: string;
  /** What the later turn will be asked, when the arguments named it. */
  prompt?: string;
  /** How long from now, in milliseconds, when the arguments said it in a form the translator reads. */
  delayMs?: number;
  /** The time it is due, as given (ISO 8601 or the harness's own text). */
  at?: string;
  /** What the harness answered when it took the request. */
  result?: string;
}
