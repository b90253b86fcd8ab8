import type { BaseEvent, RunAgentInput, Tool } from "@ag-ui/client";
import { Observable, Subject } from "rxjs";
import { contentText } from "../../input/prompt-parts.js";
import { type ForwardedMessage, fingerprintMessage } from "../../input/message-fingerprint.js";
import { approximateSize } from "./approximate-size.js";
import { RecordedRun } from "./recorded-run.js";
import type { ReplayBudget } from "./replay-budget.js";
import { ThreadTranscript } from "./thread-transcript.js";

export interface ThreadChannelOptions {
  /** Events each run keeps for replay. */
  maxReplayEvents: number;
  /** Characters of events each run in flight keeps for replay. */
  maxReplayBytes: number;
  /** An ended run larger than this is dropped at once rather than kept for its grace period. */
  maxGraceRunBytes: number;
  /** How long an ended run stays replayable (a client reconnecting just after the end still gets its tail). */
  replayGraceMs: number;
  /** Characters one thread's transcript keeps. */
  maxTranscriptBytes: number;
  /** Shared by every thread: what ended runs kept for their grace period hold together. */
  replayBudget: ReplayBudget;
  /** Hears every change of the characters a thread's transcript holds. */
  onTranscriptResize(deltaBytes: number): void;
  warn(details: Record<string, unknown>, message: string): void;
}

/**
 * What `connect` needs to know about one thread: the run in flight (replayable), the run that just
 * ended (replayable for a grace period), the transcript, and the clients that keep a stream open
 * for turns the server starts. Owns the grace timer; `close()` clears it and ends every follower.
 */
export class ThreadChannel {
  readonly threadId: string;
  readonly transcript: ThreadTranscript;
  readonly #options: ThreadChannelOptions;
  readonly #serverRuns = new Subject<RecordedRun>();
  #current: RecordedRun | undefined;
  #recent: RecordedRun | undefined;
  #graceTimer: NodeJS.Timeout | undefined;
  #followers = 0;
  readonly #runEnded = new Subject<void>();
  #closed = false;
  /** The frontend tools of the thread's last client run: a server-initiated turn keeps the same tool contract. */
  lastTools: readonly Tool[] = [];
  /**
   * The fingerprint of the newest user message a client run brought (bounded id, text digest): what a
   * caller without a principal must show to `connect` (see `AntigravityAgent.showsTranscript`).
   */
  latestUserMessage: ForwardedMessage | undefined;

  constructor(threadId: string, options: ThreadChannelOptions) {
    this.threadId = threadId;
    this.#options = options;
    this.transcript = new ThreadTranscript({ maxBytes: options.maxTranscriptBytes, onResize: (delta) => options.onTranscriptResize(delta) });
  }

  /** The run in flight, if any. */
  get current(): RecordedRun | undefined {
    return this.#current;
  }

  /** Whether anything still needs this channel (a run, a replay window, an open stream). */
  get active(): boolean {
    return this.#current !== undefined || this.#recent?.replayable === true || this.#followers > 0;
  }

  /** Whether only an ended run's replay window keeps this channel: no run in flight, no `stayOpen` stream. */
  get replayOnly(): boolean {
    return this.#followers === 0 && this.#current === undefined && this.#recent?.replayable === true;
  }

  /** Whether only `stayOpen` streams keep this channel: no run in flight, none replayable. */
  get followedOnly(): boolean {
    return this.#followers > 0 && this.#current === undefined && this.#recent?.replayable !== true;
  }

  /** A run with this id that is in flight or ended within the grace period. */
  run(runId: string): RecordedRun | undefined {
    if (this.#current?.runId === runId) return this.#current;
    if (this.#recent?.runId === runId && this.#recent.replayable) return this.#recent;
    return undefined;
  }

  /** Starts recording a run (at its RUN_STARTED); the transcript follows it. */
  begin(input: RunAgentInput, options: { serverInitiated: boolean }): RecordedRun {
    this.#current?.end();
    const run = new RecordedRun(input.runId, {
      maxEvents: this.#options.maxReplayEvents,
      maxBytes: this.#options.maxReplayBytes,
      serverInitiated: options.serverInitiated,
    });
    this.#current = run;
    if (!options.serverInitiated) {
      this.#rememberTools(input.tools);
      const latest = input.messages.findLast((message) => message.role === "user");
      if (latest !== undefined) this.latestUserMessage = fingerprintMessage(latest.id, contentText(latest.content));
    }
    this.transcript.follow(input, run.live(), {
      serverInitiated: options.serverInitiated,
      onError: (error) =>
        this.#options.warn({ threadId: this.threadId, runId: run.runId, error }, "the thread transcript could not apply a run's events; a later snapshot may miss them"),
    });
    if (options.serverInitiated) this.#serverRuns.next(run);
    return run;
  }

  /**
   * Ends a run: it stays replayable for the grace period (without its input, within the shared
   * budget), then only the transcript remains. A run too large to keep is dropped at once.
   */
  finish(run: RecordedRun): void {
    run.end();
    if (this.#current !== run) return;
    this.#current = undefined;
    this.#dropRecent();
    if (run.trimForGrace(this.#options.maxGraceRunBytes)) {
      this.#recent = run;
      this.#options.replayBudget.keep(run);
      this.#graceTimer = setTimeout(() => {
        this.#graceTimer = undefined;
        if (this.#recent === run) this.#dropRecent();
      }, this.#options.replayGraceMs);
      this.#graceTimer.unref();
    }
    this.#runEnded.next();
  }

  #dropRecent(): void {
    if (this.#graceTimer !== undefined) clearTimeout(this.#graceTimer);
    this.#graceTimer = undefined;
    const recent = this.#recent;
    this.#recent = undefined;
    if (recent === undefined) return;
    this.#options.replayBudget.release(recent);
    recent.discard();
  }

  /** Keeps the tools of the thread's last client run, unless they alone would outgrow the transcript's room. */
  #rememberTools(tools: readonly Tool[]): void {
    if (approximateSize(tools) <= this.#options.maxTranscriptBytes / 4) {
      this.lastTools = tools;
      return;
    }
    this.lastTools = [];
    this.#options.warn({ threadId: this.threadId }, "the run's frontend tools are too large to keep: turns the server starts on this thread get none");
  }

  /**
   * Resolves when the next run on the thread ends, the channel closes, or `timeoutMs` passes (a run
   * refused before it started never ends here); rejects when `signal` aborts.
   */
  nextRunEnd(signal: AbortSignal, timeoutMs: number): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      // Assigned last: a subscription that settles at once must find no timer to clear yet.
      let timer: NodeJS.Timeout | undefined = undefined;
      const settle = (outcome: () => void): void => {
        clearTimeout(timer);
        subscription.unsubscribe();
        signal.removeEventListener("abort", onAbort);
        outcome();
      };
      const onAbort = (): void => settle(() => reject(signal.reason));
      const subscription = this.#runEnded.subscribe({ next: () => settle(resolve), complete: () => settle(resolve) });
      if (signal.aborted) {
        onAbort();
        return;
      }
      signal.addEventListener("abort", onAbort, { once: true });
      timer = setTimeout(() => settle(resolve), timeoutMs);
      timer.unref();
    });
  }

  /**
   * Every run the server starts on this thread from now on, each replayed from its first event,
   * one after the other, until the subscriber leaves or the channel closes.
   */
  serverRuns(): Observable<BaseEvent> {
    return new Observable<BaseEvent>((subscriber) => {
      this.#followers += 1;
      let inner: { unsubscribe(): void } | undefined;
      const queue: RecordedRun[] = [];
      const next = (): void => {
        if (inner !== undefined || subscriber.closed) return;
        const run = queue.shift();
        if (run === undefined) return;
        inner = run.replay().subscribe({
          next: (event) => subscriber.next(event),
          error: (error: unknown) => subscriber.error(error),
          complete: () => {
            inner = undefined;
            next();
          },
        });
      };
      const runs = this.#serverRuns.subscribe({
        next: (run) => {
          queue.push(run);
          next();
        },
        complete: () => subscriber.complete(),
      });
      return () => {
        this.#followers -= 1;
        runs.unsubscribe();
        inner?.unsubscribe();
      };
    });
  }

  close(): void {
    this.#closed = true;
    this.transcript.close();
    this.#dropRecent();
    this.#current?.end();
    this.#current = undefined;
    this.#serverRuns.complete();
    this.#runEnded.complete();
  }
}
