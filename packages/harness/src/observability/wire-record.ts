/** One message crossing the wire, as the inspector hook and ANTIGRAVITY_WIRE see it (secrets redacted). */
export interface WireRecord {
  /** `harness` for the stdio handshake frames, `ws` for WebSocket messages. */
  channel: "harness" | "ws";
  /** `send`: from this client to the harness; `receive`: from the harness to this client. */
  direction: "send" | "receive";
  /** The top-level key of the message (`stepUpdate`, `userInput`, `config`, `InputConfig`, ...). */
  messageKey: string;
  /** The conversation id, once known (WebSocket messages only). */
  conversationId?: string;
  /** The redacted message. */
  message: unknown;
  /** Milliseconds since the epoch. */
  timestamp: number;
}

/** A programmatic observer of every wire message. It must not throw; if it does, the error is logged and ignored. */
export type WireInspector = (record: WireRecord) => void;
