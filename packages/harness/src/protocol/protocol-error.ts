import { brandClass, CodedError, nameErrorClass } from "@ag-ui-antigravity/foundation";

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

export interface ProtocolErrorOptions {
  cause?: unknown;
  /** The most recent harness stderr lines, when the failure may be explained there. */
  stderrTail?: readonly string[];
}

/**
 * A frame or message that does not follow the harness wire protocol. It is a HarnessError by brand,
 * so `HarnessError.isInstance` matches it too, from either entry of the package; it does not import
 * the main entry's class, so `./protocol` stays free of everything but schemas and codecs.
 * `ProtocolError.isInstance` narrows to the protocol codes.
 */
export class ProtocolError extends CodedError<ProtocolErrorCode> {
  readonly details: ProtocolErrorDetails;
  /** Fields every HarnessError has. */
  readonly stderrTail: readonly string[];
  readonly subject: string | undefined = undefined;
  readonly partialText: string | undefined = undefined;

  static {
    brandClass(this, "HarnessError");
    nameErrorClass(this, "ProtocolError");
  }

  constructor(code: ProtocolErrorCode, message: string, details: ProtocolErrorDetails = {}, options: ProtocolErrorOptions = {}) {
    super(code, message, options);
    this.details = details;
    this.stderrTail = options.stderrTail ?? [];
  }
}
