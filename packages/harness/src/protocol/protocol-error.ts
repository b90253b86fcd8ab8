import { HarnessError, type HarnessErrorOptions } from "../errors/harness-error.js";

/** The ways bytes or JSON from the other side of the wire can be wrong. */
export type ProtocolErrorCode = "PROTOCOL_INVALID_FRAME" | "PROTOCOL_FRAME_TOO_LARGE" | "PROTOCOL_INVALID_MESSAGE";

/** One schema violation, as zod reported it: where in the message and what was expected. */
export interface ProtocolIssue {
  path: readonly (string | number)[];
  message: string;
  code?: string;
}

/** What was wrong, so a log line or a test can say more than "invalid". */
export interface ProtocolErrorDetails {
  /** Schema violations of a JSON message. */
  issues?: readonly ProtocolIssue[];
  /** Byte offset in the frame or payload where decoding failed. */
  offset?: number;
  /** Payload length a frame header announced. */
  announcedLength?: number;
  /** The bound the announced length exceeded. */
  maxFrameBytes?: number;
  /** Which message was being decoded or parsed. */
  messageType?: string;
}

/**
 * A frame or message that does not follow the harness wire protocol. It is a HarnessError, so
 * `HarnessError.isInstance` matches it too; `ProtocolError.isInstance` narrows to the protocol codes.
 */
export class ProtocolError extends HarnessError {
  declare readonly code: ProtocolErrorCode;
  readonly details: ProtocolErrorDetails;

  constructor(code: ProtocolErrorCode, message: string, details: ProtocolErrorDetails = {}, options: HarnessErrorOptions = {}) {
    super(code, message, options);
    this.name = "ProtocolError";
    this.details = details;
  }

  static override isInstance(value: unknown): value is ProtocolError {
    return (
      HarnessError.isInstance(value) &&
      (value.code === "PROTOCOL_INVALID_FRAME" ||
        value.code === "PROTOCOL_FRAME_TOO_LARGE" ||
        value.code === "PROTOCOL_INVALID_MESSAGE")
    );
  }
}
