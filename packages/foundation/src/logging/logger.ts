/** Structured details of one log line. */
export type LogFields = Record<string, unknown>;

/**
 * The one logger shape of every package: pino's argument order, fields first, then the message, so
 * a pino logger (or a `child` of one) fits as is. The packages never import a logging library.
 */
export interface Logger {
  debug(fields: LogFields, message?: string): void;
  info(fields: LogFields, message?: string): void;
  warn(fields: LogFields, message?: string): void;
  error(fields: LogFields, message?: string): void;
}

const ignore = (): void => undefined;

/** The default logger: drops everything. */
export const silentLogger: Logger = Object.freeze({ debug: ignore, info: ignore, warn: ignore, error: ignore });

/**
 * A full logger from one that may have only some of the levels, which never throws: a broken log
 * sink must not fail a turn, a response or the pool's books halfway through a crash report.
 */
export function shieldLogger(logger: Partial<Logger> | undefined): Logger {
  if (logger === undefined) return silentLogger;
  const at =
    (level: keyof Logger) =>
    (fields: LogFields, message?: string): void => {
      const method = logger[level];
      if (typeof method !== "function") return;
      try {
        if (message === undefined) method.call(logger, fields);
        else method.call(logger, fields, message);
      } catch {
        // Logging is best effort.
      }
    };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
