import { CodedError, nameErrorClass } from "@ag-ui-antigravity/foundation";

/** Every failure the Express binding raises locally, by kind. Match on these, never on messages. */
export type ExpressBindingErrorCode =
  /** The options given to `createAgentRouter` / `createAntigravityApp` are invalid. */
  | "CONFIG_INVALID"
  /** Thrown by an `authorize` hook: the caller is not known (answered with 401). */
  | "UNAUTHENTICATED"
  /** Thrown by an `authorize` hook: the caller is known but refused (answered with 403). */
  | "FORBIDDEN";

/** What an `ExpressBindingError` carries beside its code and message: the error that caused it. */
export interface ExpressBindingErrorOptions {
  /** The underlying failure, kept as the error's standard `cause`; absent when there is none. */
  cause?: unknown;
}

/**
 * Base class of every error this package throws. `isInstance` works across the ESM and CJS builds
 * and across duplicated installs, where `instanceof` does not.
 */
export class ExpressBindingError extends CodedError<ExpressBindingErrorCode> {
  static {
    nameErrorClass(this, "ExpressBindingError");
  }
}
