/**
 * Where the pool reports what it does (spawns, crashes, back-off, reaping). The pool never imports
 * a logging library; adapt yours to this shape. `fields` carries the structured details.
 */
export interface PoolLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** The default logger: drops everything. */
export const silentPoolLogger: PoolLogger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
