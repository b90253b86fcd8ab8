import type { RunStatus } from "../agent/useAgentSession";

const labels: Record<RunStatus, string> = {
  idle: "Ready",
  running: "Running…",
  waiting: "Waiting for you",
  error: "Error",
};

/** The thread's state at a glance; "waiting for you" means a run is parked on the user. */
export function RunStatusBadge({ status }: { status: RunStatus }) {
  return (
    <span className={`status-badge status-${status}`} data-testid="run-status" data-status={status}>
      <span className="status-dot" aria-hidden="true" />
      {labels[status]}
    </span>
  );
}
