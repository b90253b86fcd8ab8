import type { WebSocket } from "ws";
import type { IdSource } from "../ids/id-source.js";
import type { VersionProfile } from "../version/version-profile.js";
import type { OutputPayload, UsageMetadata } from "./output-messages.js";

/** Above this many queued bytes the producer waits for the socket to drain: memory stays bounded whatever the client's pace. */
const highWaterMark = 1024 * 1024;

const hookArgKeys = ["preToolArgs", "postToolArgs", "onToolErrorArgs"] as const;

export interface OutputChannelOptions {
  socket: WebSocket;
  profile: VersionProfile;
  ids: IdSource;
  /** Add `seqNum` / `timestampMicros` to every event. */
  envelope: boolean;
}

/**
 * Serialises OutputEvents onto one WebSocket: envelope numbering, the version dialect, and
 * backpressure. Everything the conversation sends goes through here, so the dialect lives in one place.
 */
export class OutputChannel {
  readonly #socket: WebSocket;
  readonly #profile: VersionProfile;
  readonly #ids: IdSource;
  readonly #envelope: boolean;
  #seqNum = 0n;
  #drainWaiters: (() => void)[] = [];
  /** Count of frames handed to the socket; the benchmark reads it. */
  sentFrames = 0;

  constructor(options: OutputChannelOptions) {
    this.#socket = options.socket;
    this.#profile = options.profile;
    this.#ids = options.ids;
    this.#envelope = options.envelope;
  }

  get open(): boolean {
    return this.#socket.readyState === this.#socket.OPEN;
  }

  /** Sends one OutputEvent; `usageMetadata` is the ≤0.1.9 envelope sibling of the payload. */
  send(payload: OutputPayload, extras: { usageMetadata?: UsageMetadata } = {}): void {
    if (!this.open) return;
    const event: Record<string, unknown> = {};
    if (this.#envelope) {
      this.#seqNum += 1n;
      event["seqNum"] = this.#seqNum.toString();
      event["timestampMicros"] = this.#ids.nowMicros().toString();
    }
    Object.assign(event, this.#applyDialect(payload));
    if (extras.usageMetadata !== undefined && !this.#profile.has("usageUpdates")) {
      event["usageMetadata"] = extras.usageMetadata;
    }
    this.sendRaw(JSON.stringify(event));
  }

  /** Sends text exactly as given; fault actions use it to emit malformed frames. */
  sendRaw(text: string): void {
    if (!this.open) return;
    this.sentFrames += 1;
    this.#socket.send(text, () => {
      if (this.#socket.bufferedAmount < highWaterMark) this.#releaseDrainWaiters();
    });
  }

  /** Resolves once the socket's send buffer is below the high-water mark (or the socket closed). */
  async drained(): Promise<void> {
    if (!this.open || this.#socket.bufferedAmount < highWaterMark) return;
    await new Promise<void>((resolve) => this.#drainWaiters.push(resolve));
  }

  /** Wakes producers blocked in `drained()`; called on drain and when the socket closes. */
  releaseWaiters(): void {
    this.#releaseDrainWaiters();
  }

  #releaseDrainWaiters(): void {
    const waiters = this.#drainWaiters;
    this.#drainWaiters = [];
    for (const wake of waiters) wake();
  }

  #applyDialect(payload: OutputPayload): OutputPayload {
    const trajectoryStateUpdate = payload["trajectoryStateUpdate"] as Record<string, unknown> | undefined;
    if (trajectoryStateUpdate?.["state"] === "STATE_FULLY_IDLE") {
      return { ...payload, trajectoryStateUpdate: { ...trajectoryStateUpdate, state: this.#profile.idleState } };
    }
    const callHookRequest = payload["callHookRequest"] as Record<string, unknown> | undefined;
    if (callHookRequest !== undefined && !this.#profile.has("hookCallIds")) {
      const copy: Record<string, unknown> = { ...callHookRequest };
      for (const key of hookArgKeys) {
        const args = copy[key] as Record<string, unknown> | undefined;
        if (args !== undefined) {
          const { callId: _callId, ...rest } = args;
          copy[key] = rest;
        }
      }
      return { ...payload, callHookRequest: copy };
    }
    return payload;
  }
}
