import type { Logger } from "@ag-ui-antigravity/foundation";
import type { SessionNotification, SessionUpdate } from "@agentclientprotocol/sdk";
import type { Transcript } from "./transcript.js";

/** Sends one notification to the client. */
export type SendUpdate = (notification: SessionNotification) => Promise<void>;

/**
 * The one way a session's updates reach the client: in the order they were enqueued, each one also
 * kept in the transcript. Producers may be async (a finished edit reads its file for the diff) and
 * still keep their place. A client that went away fails its sends, which are dropped: the turn runs
 * to its end regardless, so the harness is never left waiting.
 */
export class UpdateChannel {
  readonly #sessionId: string;
  readonly #send: SendUpdate;
  readonly #transcript: Transcript;
  readonly #logger: Logger;
  #tail: Promise<void> = Promise.resolve();

  constructor(options: { sessionId: string; send: SendUpdate; transcript: Transcript; logger: Logger }) {
    this.#sessionId = options.sessionId;
    this.#send = options.send;
    this.#transcript = options.transcript;
    this.#logger = options.logger;
  }

  /** Queues the updates `produce` makes behind everything queued before. */
  enqueue(produce: () => SessionUpdate[] | Promise<SessionUpdate[]>): void {
    this.#tail = this.#tail.then(async () => {
      let updates: SessionUpdate[];
      try {
        updates = await produce();
      } catch (error) {
        this.#logger.warn({ error: String(error) }, "an update could not be built; it is skipped");
        return;
      }
      for (const update of updates) {
        this.#transcript.add(update);
        await this.#send({ sessionId: this.#sessionId, update }).catch((error: unknown) => {
          this.#logger.debug({ error: String(error) }, "a session update could not be sent");
        });
      }
    });
  }

  /** Resolves when everything queued so far has been sent. */
  flush(): Promise<void> {
    return this.#tail;
  }
}
