import type { ToolCall } from "@ag-ui/client";
import { prettyJson } from "../agent/json";

export type ToolCallStatus = "pending" | "awaiting-approval" | "waiting" | "complete";

const statusLabels: Record<ToolCallStatus, string> = {
  pending: "Running…",
  "awaiting-approval": "Awaiting approval",
  waiting: "Waiting for you",
  complete: "Done",
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
      <div className="card-label">Arguments</div>
      <pre className="code-block" data-testid="tool-call-args">
        {toolCall.function.arguments === "" ? "{}" : prettyJson(toolCall.function.arguments)}
      </pre>
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
