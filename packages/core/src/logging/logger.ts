/** Structured details of one log line. */
export type LogFields = Record<string, unknown>;

/**
 * The one logger shape of every package: pino's argument order, fields first, then the message, so
 * a pino logger (or a `child` of one) fits as is. The packages never import a logging library: each
 * takes a `logger` option of this type (a missing level is skipped, a throwing one ignored).
 */
export interface Logger {
  /** Detail for whoever debugs a thread or a wire exchange (frames, timings); off in production by default. */
  debug(fields: LogFields, message?: string): void;
  /** What an operator wants to see once per event: a process started, a thread retired, a config resolved. */
  info(fields: LogFields, message?: string): void;
  /** Something went wrong and was handled (a retry, a refused frame, a drifted harness); worth a look. */
  warn(fields: LogFields, message?: string): void;
  /** Something failed that a client or operator will notice (a run failed, a process crashed, a write was lost). */
  error(fields: LogFields, message?: string): void;
}
