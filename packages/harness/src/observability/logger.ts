/**
 * Where the package reports what it does. Any object with these four methods works (pino, winston,
 * console); the package never imports a logging library itself.
 */
export interface HarnessLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

const ignore = (): void => undefined;

/** The default logger: drops everything. */
export const noopLogger: HarnessLogger = Object.freeze({ debug: ignore, info: ignore, warn: ignore, error: ignore });

/**
 * Accepts a partial logger so callers can pass only the levels they care about, and shields the
 * package from a logger that throws (a broken log sink must not fail a turn).
 */
export function toHarnessLogger(logger: Partial<HarnessLogger> | undefined): HarnessLogger {
  if (logger === undefined) return noopLogger;
  const wrap =
    (level: keyof HarnessLogger) =>
    (message: string, fields?: Record<string, unknown>): void => {
      const method = logger[level];
      if (typeof method !== "function") return;
      try {
        method.call(logger, message, fields);
      } catch {
        // A failing log sink is not the caller's turn's problem.
      }
    };
  return { debug: wrap("debug"), info: wrap("info"), warn: wrap("warn"), error: wrap("error") };
}
