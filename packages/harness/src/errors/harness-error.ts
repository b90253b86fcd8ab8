import { CodedError, nameErrorClass } from "@ag-ui-antigravity/foundation";

/** Every failure the harness package raises, by kind. Match on these, never on messages. */
export type HarnessErrorCode =
  | "HARNESS_NOT_FOUND"
  | "SPAWN_FAILED"
  | "HANDSHAKE_FAILED"
  | "INIT_FAILED"
  | "CONNECTION_CLOSED"
  | "CONFIG_INVALID"
  | "TURN_BUSY"
  | "TURN_FAILED"
  | "MCP_LOAD_FAILED"
  | "TIMEOUT"
  | "CANCELLED"
  | "PROTOCOL_INVALID_FRAME"
  | "PROTOCOL_FRAME_TOO_LARGE"
  | "PROTOCOL_INVALID_MESSAGE"
  /** The harness could not parse a frame of ours: it speaks another protocol version than the one we chose. */
  | "PROTOCOL_SKEW"
  /** The harness stopped the turn because a budget ran out (`subject`: the StopReason). */
  | "BUDGET_EXCEEDED"
  /** The harness stopped the turn because the model quota is exhausted. */
  | "QUOTA_EXHAUSTED";

/** What a `HarnessError` carries beside its code: the cause and the harness's last stderr lines. */
export interface HarnessErrorOptions {
  /** The error that led to this one (a spawn failure, a zod error, ...), kept as the standard `Error.cause`. */
  cause?: unknown;
  /** The most recent harness stderr lines, when the failure may be explained there. */
  stderrTail?: readonly string[];
  /**
   * What the error is about, when it names one thing: the MCP server for MCP_LOAD_FAILED, the field
   * for PROTOCOL_SKEW, the StopReason for BUDGET_EXCEEDED and QUOTA_EXHAUSTED, the harness's error
   * code (0.1.20+) for TURN_FAILED.
   */
  subject?: string;
  /** For a turn that ended in this error: the answer text it had produced so far. */
  partialText?: string;
}

/**
 * Base class of every error this package throws. `isInstance` works across the ESM and CJS builds,
 * across this package's two entries (a `ProtocolError` from `./protocol` is a HarnessError too) and
 * across duplicated installs, where `instanceof` does not.
 */
export class HarnessError extends CodedError<HarnessErrorCode> {
  /** The harness's last stderr lines that may explain the failure (redacted); empty when none came with it. */
  readonly stderrTail: readonly string[];
  /** What the error is about when it names one thing (see `HarnessErrorOptions.subject`); undefined otherwise. */
  readonly subject: string | undefined;
  /** For a turn that ended in this error: the answer text it had produced so far. */
  readonly partialText: string | undefined;

  static {
    nameErrorClass(this, "HarnessError");
  }

  constructor(code: HarnessErrorCode, message: string, options: HarnessErrorOptions = {}) {
    super(code, message, options);
    this.stderrTail = options.stderrTail ?? [];
    this.subject = options.subject;
    this.partialText = options.partialText;
  }
}
