import type { AgentTask } from "../features/activities";

const markers: Record<AgentTask["state"], string> = { done: "✓", running: "●", waiting: "○" };

/** The agent's tasks, each with its status as the model wrote it. */
export function TaskChecklist({ tasks }: { tasks: readonly AgentTask[] }) {
  return (
    <ol className="task-steps agent-tasks">
      {tasks.map((task) => (
        <li key={task.id} className={`task-step agent-task-${task.state}`} data-testid="agent-task" data-state={task.state}>
          <span className="task-step-marker" aria-hidden="true">
            {markers[task.state]}
          </span>
          <span className="agent-task-title">{task.title}</span>
          <span className="agent-task-status">{task.status}</span>
        </li>
      ))}
    </ol>
  );
}
