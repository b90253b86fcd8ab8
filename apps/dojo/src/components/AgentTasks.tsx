import type { Message } from "@ag-ui/client";
import { latestTasks } from "../features/activities";
import { TaskChecklist } from "./TaskChecklist";

/** autonomous_work: the thread's task list as the agent keeps it (its newest `antigravity.tasks` activity). */
export function AgentTasks({ messages }: { messages: readonly Message[] }) {
  const tasks = latestTasks(messages);
  const done = tasks.filter((task) => task.state === "done").length;
  return (
    <aside className="side-panel" data-testid="agent-tasks">
      <h2 className="side-panel-title">The agent's tasks</h2>
      {tasks.length === 0 ? (
        <p className="side-panel-empty">Ask the agent to plan something; the tasks it keeps with manage_task appear here and update as it works.</p>
      ) : (
        <>
          <div className="progress-summary" data-testid="agent-tasks-summary">
            {done} of {tasks.length} tasks done
          </div>
          <TaskChecklist tasks={tasks} />
        </>
      )}
    </aside>
  );
}
