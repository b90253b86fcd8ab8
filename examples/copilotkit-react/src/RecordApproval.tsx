// The approval: the agent's delete_record (a server tool with toolApproval) ends the run with an
// AG-UI interrupt; CopilotKit renders this in the chat, and the answer resumes the run (`resume`).
import { useInterrupt } from "@copilotkit/react-core/v2";

export function RecordApproval() {
  useInterrupt({
    render: ({ interrupt, resolve }) => (
      <div className="approval" data-testid="approval">
        <p>{interrupt?.message ?? "The agent asks to run a tool."}</p>
        <button type="button" onClick={() => void resolve({ approved: true })}>
          Approve
        </button>
        <button type="button" onClick={() => void resolve({ approved: false })}>
          Deny
        </button>
      </div>
    ),
  });
  return null;
}
