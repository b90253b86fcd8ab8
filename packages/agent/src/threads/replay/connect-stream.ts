import { randomUUID } from "node:crypto";
import { EventType, type BaseEvent, type Message, type RunAgentInput } from "@ag-ui/client";
import { RESUME_RUN_ID_PROP } from "@ag-ui-antigravity/foundation";
import { concat, defer, EMPTY, from, type Observable, of, switchMap } from "rxjs";
import type { StoredTranscript } from "../store/thread-store.js";
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

/** Snapshot runs have ids of their own kind: a client that resumes after one resumes no run. */
const SNAPSHOT_RUN_PREFIX = "snapshot-";

/**
 * The run a client resumes after losing its stream mid-run (`forwardedProps.resumeRunId`, set by
 * the HTTP binding from `Last-Event-ID`): that run, and never another, is what it asks for.
 */
export function resumedRunIdOf(input: RunAgentInput): string | undefined {
  const value = (input.forwardedProps as Record<string, unknown> | undefined)?.[RESUME_RUN_ID_PROP];
  return typeof value === "string" && value.length > 0 && !value.startsWith(SNAPSHOT_RUN_PREFIX) ? value : undefined;
}

/** Where `connect` finds a thread's transcript that outlived this process (the thread store's). */
export type StoredTranscriptLoader = (threadId: string) => Promise<StoredTranscript | undefined>;

/**
 * What `AbstractAgent.connect(input)` streams for one thread:
 * - a client resuming a run (`resumedRunIdOf`): that run while it is in flight or within its grace
 *   period after the end, from its first event, then live until it ends; when it is over and no
 *   longer held, a RUN_ERROR `REPLAY_UNAVAILABLE` saying so, then the thread's snapshot: never
 *   another run;
 * - else the run `input.runId` names, or a run in flight: that run, the same way;
 * - an idle thread the agent knows (in memory, or from the thread store's transcript after a
 *   restart): one short run holding a MESSAGES_SNAPSHOT and a STATE_SNAPSHOT, ending with the
 *   pending interrupt outcome when the thread waits on a human;
 * - a thread the agent does not know: nothing (the client keeps what it holds);
 * then, when the client asked to stay open, every server-initiated run as it happens.
 * Each run in the stream opens with RUN_STARTED and ends with its terminal event.
 */
export function connectStream(channels: ThreadChannels, input: RunAgentInput, loadTranscript: StoredTranscriptLoader): Observable<BaseEvent> {
  const stayOpen = wantsStayOpen(input);
  const resumed = resumedRunIdOf(input);
  return defer(() => {
    const channel = stayOpen ? channels.get(input.threadId) : channels.peek(input.threadId);
    const knows = channel !== undefined && (channel.transcript.known || channel.current !== undefined);
    const catchUp = knows ? catchUpOn(channel, input, resumed) : fromStore(channels, input, resumed, loadTranscript);
    return stayOpen ? concat(catchUp, channels.get(input.threadId).serverRuns()) : catchUp;
  });
}

/** A thread this process has not seen since it started: its transcript from the thread store, if one was kept. */
function fromStore(channels: ThreadChannels, input: RunAgentInput, resumed: string | undefined, loadTranscript: StoredTranscriptLoader): Observable<BaseEvent> {
  return from(loadTranscript(input.threadId)).pipe(
    switchMap((stored) => {
      const existing = channels.peek(input.threadId);
      // A run may have begun meanwhile: it is the news.
      if (existing !== undefined && (existing.transcript.known || existing.current !== undefined)) return catchUpOn(existing, input, resumed);
      if (stored === undefined) return resumed === undefined ? EMPTY : of(runOver(resumed));
      const channel = channels.get(input.threadId);
      channel.transcript.seed(stored);
      return catchUpOn(channel, input, resumed);
    }),
  );
}

function catchUpOn(channel: ThreadChannel, input: RunAgentInput, resumed: string | undefined): Observable<BaseEvent> {
  const runOf = (): ReturnType<ThreadChannel["run"]> => (resumed === undefined ? (channel.run(input.runId) ?? channel.current) : channel.run(resumed));
  const settled = runOf() === undefined ? channel.transcript.settled() : Promise.resolve();
  return from(settled).pipe(
    switchMap(() => {
      // A run may have started while the transcript settled: then it is the news, not the snapshot.
      const run = runOf();
      if (run !== undefined) return run.replay();
      const snapshot = channel.transcript.known ? snapshotRun(channel, input) : [];
      if (resumed === undefined) return snapshot.length === 0 ? EMPTY : from(snapshot);
      return from([runOver(resumed), ...snapshot]);
    }),
  );
}

/** Tells a client that the run it resumes is over and no longer held (the thread's snapshot follows, when there is one). */
function runOver(runId: string): BaseEvent {
  return {
    type: EventType.RUN_ERROR,
    code: "REPLAY_UNAVAILABLE",
    message: `The run this stream resumes (${JSON.stringify(runId.slice(0, 80))}) ended while the client was away and is no longer held; the thread as it now stands follows.`,
  } as BaseEvent;
}

/** The CUSTOM event that tells a client a snapshot could not be whole. */
export const TRANSCRIPT_INCOMPLETE_EVENT = "antigravity.transcript_incomplete";

/**
 * The snapshot is a run of its own, under a fresh id: it must not pass for the run a client resumes.
 * When the transcript lost its oldest messages (bounds), the client's own copies of them (from the
 * connect input) fill the gap; what neither side holds is said in a CUSTOM event before the snapshot,
 * never dropped silently (a MESSAGES_SNAPSHOT replaces the client's messages, so it must not
 * shrink them to what the server still holds).
 */
/** @ag-ui/client's metadata key for which activity types a MESSAGES_SNAPSHOT is the authority on. */
const ACTIVITY_HISTORY_METADATA = "@ag-ui/client";

function snapshotRun(channel: ThreadChannel, input: RunAgentInput): BaseEvent[] {
  const view = channel.transcript.view;
  const runId = `${SNAPSHOT_RUN_PREFIX}${randomUUID()}`;
  const events: BaseEvent[] = [{ type: EventType.RUN_STARTED, threadId: input.threadId, runId } as BaseEvent];
  const messages = snapshotMessages(view.messages, view.omitted === undefined ? 0 : view.omitted.messages, input.messages);
  if (view.omitted !== undefined && (!messages.complete || view.state === undefined)) {
    events.push({
      type: EventType.CUSTOM,
      name: TRANSCRIPT_INCOMPLETE_EVENT,
      value: {
        reason: view.omitted.reason,
        omittedMessages: messages.complete ? 0 : view.omitted.messages,
        stateOmitted: view.state === undefined,
        keptClientMessages: messages.snapshot.length - view.messages.length,
      },
    } as BaseEvent);
  }
  // The transcript is no authority on activity messages: clients never send theirs, so a run's
  // input lacks the activities of earlier runs. The snapshot says it owns no activity type
  // (@ag-ui/client's convention), so a client keeps the ones it holds that the snapshot lacks.
  events.push({ type: EventType.MESSAGES_SNAPSHOT, messages: structuredClone(messages.snapshot), metadata: { [ACTIVITY_HISTORY_METADATA]: { authoritativeActivityTypes: [] } } } as BaseEvent);
  if (view.state !== undefined) events.push({ type: EventType.STATE_SNAPSHOT, snapshot: structuredClone(view.state) } as BaseEvent);
  events.push({
    type: EventType.RUN_FINISHED,
    threadId: input.threadId,
    runId,
    ...(view.interrupts.length === 0 ? {} : { outcome: { type: "interrupt" as const, interrupts: structuredClone(view.interrupts) } }),
  } as BaseEvent);
  return events;
}

/**
 * The messages of a snapshot: the transcript's, preceded (when it lost its oldest) by the client's
 * own messages before the first one the transcript kept, or by all the client's messages the
 * transcript does not hold when the client lacks that one. `complete` says whether the gap was
 * certainly filled: only when the client holds the message the transcript resumes at.
 */
function snapshotMessages(kept: Message[], omitted: number, clientMessages: readonly Message[]): { snapshot: Message[]; complete: boolean } {
  if (omitted === 0) return { snapshot: kept, complete: true };
  // Clients never send activity messages (@ag-ui/client leaves them out of a run's input): the
  // transcript resumes, for them, at its first message of another kind.
  const first = kept.find((message) => message.role !== "activity");
  const joint = first === undefined ? -1 : clientMessages.findIndex((message) => message.id === first.id);
  if (joint !== -1) return { snapshot: [...clientMessages.slice(0, joint), ...kept], complete: true };
  const keptIds = new Set(kept.map((message) => message.id));
  return { snapshot: [...clientMessages.filter((message) => !keptIds.has(message.id)), ...kept], complete: false };
}
