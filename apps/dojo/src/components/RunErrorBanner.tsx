import type { RunErrorInfo } from "../agent/useAgentSession";

export function RunErrorBanner({ error }: { error: RunErrorInfo }) {
  return (
    <div className="run-error" role="alert" data-testid="run-error">
      <div className="run-error-heading">
        The run failed
        {error.code !== undefined && (
          <code className="run-error-code" data-testid="run-error-code">
            {error.code}
          </code>
        )}
      </div>
      <div className="run-error-message" data-testid="run-error-message">
        {error.message}
      </div>
    </div>
  );
}
