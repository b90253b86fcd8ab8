import { CodedError, nameErrorClass } from "@ag-ui-antigravity/foundation";

/** Every failure the emulator raises, by kind. Match on these, never on messages. */
export type EmulatorErrorCode =
  | "HANDSHAKE_FAILED"
  | "SCENARIO_NOT_FOUND"
  | "SCENARIO_INVALID"
  | "INVALID_INPUT"
  | "WORKSPACE_VIOLATION"
  | "TOOL_FAILED"
  | "CONVERSATION_NOT_FOUND"
  | "CONVERSATION_EXISTS"
  | "CONFIG_INVALID"
  /** A recording given to `--replay` cannot be read. */
  | "REPLAY_INVALID"
  /** The client sent something other than what the recording holds at that point. */
  | "REPLAY_DIVERGED";

/** What an `EmulatorError` carries beside its code and message: the error that caused it. */
export interface EmulatorErrorOptions {
  /** The underlying failure, kept as the error's standard `cause`; absent when there is none. */
  cause?: unknown;
}

/**
 * Base class of every error the emulator raises. `isInstance` works across the ESM and CJS builds
 * and across duplicated installs, where `instanceof` does not.
 */
export class EmulatorError extends CodedError<EmulatorErrorCode> {
  static {
    nameErrorClass(this, "EmulatorError");
  }
}
