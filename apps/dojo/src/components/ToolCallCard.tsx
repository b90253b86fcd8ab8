import type { ToolCall } from "@ag-ui/client";
import { prettyJson } from "../agent/json";

/**
 * `denied`: the user refused its approval (the server may still send the refusal as its result).
 * `no-result`: the run ended and the server sent no TOOL_CALL_RESULT (for example a call the user
 * denied, when the server reports the denial only in text).
 */
export type ToolCallStatus = "pending" | "awaiting-approval" | "waiting" | "complete" | "denied" | "no-result";

const statusLabels: Record<ToolCallStatus, string> = {
  pending: "Running…",
  "awaiting-approval": "Awaiting approval",
  waiting: "Waiting for you",
  complete: "Done",
  denied: "Denied",
  "no-result": "No result",
};

/** Any tool call: its name and arguments, then its result once the TOOL_CALL_RESULT (or answer) arrives. */
export function ToolCallCard({ toolCall, resultText, status }: { toolCall: ToolCall; resultText: string | undefined; status: ToolCallStatus }) {
  return (
    <div className="tool-card" data-testid="tool-call-card" data-tool-name={toolCall.function.name} data-status={status}>
      <div className="tool-card-header">
        <span className="tool-card-icon" aria-hidden="true">⚙</span>
        <code className="tool-card-name">{toolCall.function.name}</code>
        <ToolStatusPill status={status} />
      </div>
      {/* Arguments matter while the call runs or waits on a frontend answer; once done (or shown in the approval card) they fold away. */}
      <details className="tool-card-arguments" open={status === "pending" || status === "waiting" || undefined}>
        <summary className="card-label">Arguments</summary>
        <pre className="code-block" data-testid="tool-call-args">
          {toolCall.function.arguments === "" ? "{}" : prettyJson(toolCall.function.arguments)}
        </pre>
      </details>
      {resultText !== undefined && (
        <>
          <div className="card-label">Result</div>
          <pre className="code-block" data-testid="tool-call-result">
            {prettyJson(resultText)}
          </pre>
        </>
      )}
    </div>
  );
}

export function ToolStatusPill({ status }: { status: ToolCallStatus }) {
  return (
    <span className={`tool-status tool-status-${status}`} data-testid="tool-call-status">
      {status === "pending" && <span className="spinner" aria-hidden="true" />}
      {statusLabels[status]}
    </span>
  );
}
