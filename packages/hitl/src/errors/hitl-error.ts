import { CodedError, nameErrorClass } from "@ag-ui-antigravity/foundation";

/** Every failure the hitl package raises, by kind. Match on these, never on messages. */
export type HitlErrorCode =
  /** A frontend tool's name or JSON Schema cannot become a harness tool (a 400-class input error). */
  | "INVALID_TOOL_SCHEMA"
  /** An interrupt answer names no interrupt while several are parked, or one interrupt is answered twice. */
  | "AMBIGUOUS_ANSWER"
  /** An interrupt answer names an interrupt this thread never raised, or none is parked. */
  | "UNKNOWN_INTERRUPT"
  /** An interrupt answer does not validate against the interrupt's `responseSchema`. */
  | "INVALID_ANSWER"
  /** An interrupt answer was offered to a parked frontend tool, which only a ToolMessage resolves. */
  | "ANSWER_FOR_FRONTEND_TOOL"
  /** An answer arrived after the interrupt's `expiresAt`. */
  | "INTERRUPT_EXPIRED"
  /** New input arrived while interrupts are parked and the bridge is set to refuse it. */
  | "INTERRUPTS_PENDING"
  /** `interrupt()`, `getState()`, `setState()` or `getContext()` was called outside a server tool. */
  | "NOT_IN_SERVER_TOOL"
  /** A run was started while another run of the same thread is still attached. */
  | "RUN_ACTIVE"
  /** The bridge was closed; parked callers are released with this code. */
  | "CLOSED";

/**
 * What a `HitlError` carries beside its code and message: the cause, and the tool or interrupt it is
 * about.
 */
export interface HitlErrorOptions {
  /** The underlying failure, kept as the error's standard `cause`; absent when there is none. */
  cause?: unknown;
  /** The tool or interrupt the error is about, when there is one. */
  subject?: string;
}

/**
 * Base class of every error this package throws. `isInstance` works across the ESM and CJS builds
 * and across duplicated installs, where `instanceof` does not.
 *
 * @example
 * try {
 *   run = bridge.beginRun(input, { startTurn });
 * } catch (error) {
 *   if (HitlError.isInstance(error)) emit({ type: EventType.RUN_ERROR, message: error.message, code: error.code });
 *   else throw error;
 * }
 */
export class HitlError extends CodedError<HitlErrorCode> {
  /** The tool name, interrupt id or tool call id the error is about; undefined when it concerns no single one. */
  readonly subject: string | undefined;

  static {
    nameErrorClass(this, "HitlError");
  }

  constructor(code: HitlErrorCode, message: string, options: HitlErrorOptions = {}) {
    super(code, message, options);
    this.subject = options.subject;
  }

  /** True for errors a client caused by what it sent: the run should end RUN_ERROR (or an HTTP 400). */
  get isInputError(): boolean {
    return this.code !== "NOT_IN_SERVER_TOOL" && this.code !== "CLOSED" && this.code !== "RUN_ACTIVE";
  }
}
