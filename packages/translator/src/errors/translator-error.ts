import { CodedError, nameErrorClass } from "@ag-ui-antigravity/foundation";

/** Every failure the translator package raises, by kind. Match on these, never on messages. */
export type TranslatorErrorCode =
  /** A constructor option has a value the translator does not support. */
  | "CONFIG_INVALID"
  /** A host-side tool result names a call this turn never started. */
  | "UNKNOWN_TOOL_CALL";

/** What a `TranslatorError` carries beside its code and message: the error that caused it. */
export interface TranslatorErrorOptions {
  /** The error that led to this one; it becomes the standard `Error.cause`. */
  cause?: unknown;
}

/**
 * Base class of every error this package throws. `isInstance` works across the ESM and CJS builds
 * and across duplicated installs, where `instanceof` does not.
 *
 * @example
 * try {
 *   translator.toolCallResult({ toolCallId: "never-started", output: 1 });
 * } catch (error) {
 *   if (TranslatorError.isInstance(error) && error.code === "UNKNOWN_TOOL_CALL") log(error.message);
 * }
 */
export class TranslatorError extends CodedError<TranslatorErrorCode> {
  static {
    nameErrorClass(this, "TranslatorError");
  }
}
