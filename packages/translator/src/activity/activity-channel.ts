import type { ActivityDeltaEvent, ActivitySnapshotEvent, JsonPatch } from "@ag-ui/core";
import { EventType } from "@ag-ui/core";
import jsonPatch from "fast-json-patch";

/** What the client holds of one activity message, as sent in the current run. */
interface SentActivity {
  activityType: string;
  content: Record<string, unknown>;
}

/**
 * What the client was sent of each activity message in the current run. The first change of a
 * message in a run is an ACTIVITY_SNAPSHOT (a client joining mid-thread, or a later run, may not
 * hold it); later changes are ACTIVITY_DELTA patches (RFC 6902) against the content last sent.
 * Content is plain JSON whose keys the translator chooses (never a client's or the model's), so no
 * patch addresses a path the client's prototype guard refuses.
 */
export class ActivityChannel {
  readonly #sent = new Map<string, SentActivity>();

  /** The events that bring the client's copy of `messageId` to `content`; none when it already holds it. */
  change(messageId: string, activityType: string, content: Record<string, unknown>, subagentRunId?: string): Array<ActivitySnapshotEvent | ActivityDeltaEvent> {
    const copy = jsonPatch.deepClone(content) as Record<string, unknown>;
    const previous = this.#sent.get(messageId);
    this.#sent.set(messageId, { activityType, content: copy });
    if (previous === undefined || previous.activityType !== activityType) {
      const snapshot: ActivitySnapshotEvent = { type: EventType.ACTIVITY_SNAPSHOT, messageId, activityType, content: copy, replace: true };
      if (subagentRunId !== undefined) snapshot.subagentRunId = subagentRunId;
      return [snapshot];
    }
    const patch = jsonPatch.compare(previous.content, copy) as JsonPatch;
    if (patch.length === 0) return [];
    const delta: ActivityDeltaEvent = { type: EventType.ACTIVITY_DELTA, messageId, activityType, patch };
    if (subagentRunId !== undefined) delta.subagentRunId = subagentRunId;
    return [delta];
  }

  /** A run begins: the client's copies are no longer a known base. */
  startRun(): void {
    if (this.#sent.size > 0) this.#sent.clear();
  }
}
