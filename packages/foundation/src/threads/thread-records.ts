import type { ThreadRecords } from "@ag-ui-antigravity/core";

/** Whether an agent keeps its threads' records itself (`ThreadRecords`). */
export function keepsThreadRecords(agent: object): agent is ThreadRecords {
  const candidate = agent as Partial<Record<keyof ThreadRecords, unknown>>;
  return (
    typeof candidate.claimThread === "function" &&
    typeof candidate.releaseThreadClaim === "function" &&
    typeof candidate.threadOwner === "function" &&
    typeof candidate.listThreads === "function" &&
    typeof candidate.showsTranscript === "function" &&
    typeof candidate.useRouteName === "function"
  );
}

/**
 * The `forwardedProps` key the Express binding sets on a `connect` resumed after `Last-Event-ID`:
 * the run the client was following. The agent then replays that run, or, when it is over and no
 * longer held, says so and sends the thread's snapshot: never another run.
 */
export const RESUME_RUN_ID_PROP = "resumeRunId";
