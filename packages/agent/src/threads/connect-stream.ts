import { randomUUID } from "node:crypto";
import { EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import { concat, defer, EMPTY, from, type Observable, switchMap } from "rxjs";
import type { ThreadChannel } from "./thread-channel.js";
import type { ThreadChannels } from "./thread-channels.js";

/**
 * Whether a `connect` keeps its stream open for turns the server starts (`notify`, triggers) once
 * it has caught up. The client asks with `forwardedProps.stayOpen: true`; otherwise the stream ends.
 */
export function wantsStayOpen(input: RunAgentInput): boolean {
  const props = input.forwardedProps as Record<string, unknown> | undefined;
  return props?.["stayOpen"] === true;
}

/**
 * What `AbstractAgent.connect(input)` streams for one thread:
 * - the run `input.runId` names, while it is in flight or within its grace period after the end (a
 *   client resuming the run it started): that run from its first event, then live until it ends;
 * - else a run in flight: that run, the same way;
 * - an idle thread the agent knows: one short run holding a MESSAGES_SNAPSHOT and a STATE_SNAPSHOT,
 *   ending with the pending interrupt outcome when the thread waits on a human;
 * - a thread the agent does not know: nothing (the client keeps what it holds);
 * then, when the client asked to stay open, every server-initiated run as it happens.
 * Each run in the stream opens with RUN_STARTED and ends with its terminal event.
 */
export function connectStream(channels: ThreadChannels, input: RunAgentInput): Observable<BaseEvent> {
  const stayOpen = wantsStayOpen(input);
  return defer(() => {
    const channel = stayOpen ? channels.get(input.threadId) : channels.peek(input.threadId);
    if (channel === undefined) return EMPTY;
    const catchUp = catchUpOn(channel, input);
    return stayOpen ? concat(catchUp, channel.serverRuns()) : catchUp;
  });
}

function catchUpOn(channel: ThreadChannel, input: RunAgentInput): Observable<BaseEvent> {
  const replayable = channel.run(input.runId) ?? channel.current;
  const settled = replayable === undefined ? channel.transcript.settled() : Promise.resolve();
  return from(settled).pipe(
    switchMap(() => {
      // A run may have started while the transcript settled: then it is the news, not the snapshot.
      const run = channel.run(input.runId) ?? channel.current;
      if (run !== undefined) return run.replay();
      if (!channel.transcript.known) return EMPTY;
      return from(snapshotRun(channel, input));
    }),
  );
}

/** The snapshot is a run of its own, under a fresh id: it must not pass for the run a client resumes. */
function snapshotRun(channel: ThreadChannel, input: RunAgentInput): BaseEvent[] {
  const view = channel.transcript.view;
  const runId = randomUUID();
  return [
    { type: EventType.RUN_STARTED, threadId: input.threadId, runId },
    { type: EventType.MESSAGES_SNAPSHOT, messages: structuredClone(view.messages) },
    { type: EventType.STATE_SNAPSHOT, snapshot: structuredClone(view.state) },
    {
      type: EventType.RUN_FINISHED,
      threadId: input.threadId,
      runId,
      ...(view.interrupts.length === 0 ? {} : { outcome: { type: "interrupt" as const, interrupts: structuredClone(view.interrupts) } }),
    },
  ] as BaseEvent[];
}
