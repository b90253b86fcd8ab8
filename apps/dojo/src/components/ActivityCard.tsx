import type { ActivityMessage } from "@ag-ui/client";
import { isRecord, prettyJson } from "../agent/json";
import { commandOutputOf, scheduleText, tasksOf } from "../features/activities";
import { TaskChecklist } from "./TaskChecklist";

/** An ACTIVITY message: the harness's own work, drawn for the types the page knows, as JSON otherwise. */
export function ActivityCard({ message }: { message: ActivityMessage }) {
  const content = message.content;
  switch (message.activityType) {
    case "antigravity.tasks":
      return (
        <div className="activity-card" data-testid="activity-card" data-activity="tasks">
          <div className="card-label">Task list</div>
          <TaskChecklist tasks={tasksOf(content)} />
        </div>
      );
    case "antigravity.continuation": {
      const record = isRecord(content) ? content : {};
      const count = typeof record["continuation"] === "number" ? record["continuation"] : 1;
      const bound = typeof record["maxContinuations"] === "number" ? ` of at most ${record["maxContinuations"]}` : "";
      return (
        <div className="activity-card activity-note" data-testid="activity-card" data-activity="continuation">
          <span className="activity-icon" aria-hidden="true">↻</span>
          <span>
            Sent back to keep going ({count}
            {bound}): <em>{typeof record["reason"] === "string" ? record["reason"] : ""}</em>
          </span>
        </div>
      );
    }
    case "antigravity.compaction": {
      const record = isRecord(content) ? content : {};
      return (
        <div className="activity-card activity-note" data-testid="activity-card" data-activity="compaction">
          <span className="activity-icon" aria-hidden="true">⇲</span>
          <span>
            Context compacted.{typeof record["summary"] === "string" && <> Summary kept: <em>{record["summary"]}</em></>}
          </span>
        </div>
      );
    }
    case "antigravity.schedule":
      return (
        <div className="activity-card activity-note" data-testid="activity-card" data-activity="schedule">
          <span className="activity-icon" aria-hidden="true">⏰</span>
          <span>{scheduleText(content)}</span>
        </div>
      );
    case "antigravity.command_output": {
      const output = commandOutputOf(content);
      return (
        <div className="activity-card" data-testid="activity-card" data-activity="command-output" data-running={output.running ? "true" : "false"}>
          <div className="card-label">
            {output.toolName} {output.running ? "running…" : output.exitCode === undefined ? "finished" : `exited with ${output.exitCode}`}
          </div>
          {output.command !== undefined && <code className="command-line">$ {output.command}</code>}
          <pre className="code-block terminal" data-testid="command-output">
            {output.text}
            {output.truncated ? "\n…" : ""}
          </pre>
        </div>
      );
    }
    default:
      return (
        <div className="activity-card" data-testid="activity-card">
          <div className="card-label">{message.activityType}</div>
          <pre className="code-block">{prettyJson(content)}</pre>
        </div>
      );
  }
}
