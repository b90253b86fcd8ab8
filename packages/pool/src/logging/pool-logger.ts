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

/**
 * A full logger from any subset of the levels, which never throws: a broken log sink must not
 * break the pool's books halfway through a crash report.
 */
export function shieldLogger(logger: Partial<PoolLogger> | undefined): PoolLogger {
  if (logger === undefined) return silentPoolLogger;
  const level =
    (name: keyof PoolLogger) =>
    (message: string, fields?: Record<string, unknown>): void => {
      const method = logger[name];
      if (typeof method !== "function") return;
      try {
        method.call(logger, message, fields);
      } catch {
        // Logging is best effort.
      }
    };
  return { debug: level("debug"), info: level("info"), warn: level("warn"), error: level("error") };
}
