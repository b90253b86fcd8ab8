/**
 * Where the binding reports what it does. The argument order is pino's (`fields`, then `message`),
 * so a pino logger fits as is; the package never imports a logging library itself.
 */
export interface ExpressBindingLogger {
  debug(fields: Record<string, unknown>, message?: string): void;
  info(fields: Record<string, unknown>, message?: string): void;
  warn(fields: Record<string, unknown>, message?: string): void;
  error(fields: Record<string, unknown>, message?: string): void;
}

const ignore = (): void => undefined;

/** The default logger: drops everything. */
export const noopLogger: ExpressBindingLogger = Object.freeze({ debug: ignore, info: ignore, warn: ignore, error: ignore });

/**
 * Accepts a partial logger so callers can pass only the levels they care about, and shields the
 * binding from a logger that throws (a broken log sink must not break a response).
 */
export function toBindingLogger(logger: Partial<ExpressBindingLogger> | undefined): ExpressBindingLogger {
  if (logger === undefined) return noopLogger;
  const wrap =
    (level: keyof ExpressBindingLogger) =>
    (fields: Record<string, unknown>, message?: string): void => {
      const method = logger[level];
      if (typeof method !== "function") return;
      try {
        if (message === undefined) method.call(logger, fields);
        else method.call(logger, fields, message);
      } catch {
        // A failing log sink is not the request's problem.
      }
    };
  return { debug: wrap("debug"), info: wrap("info"), warn: wrap("warn"), error: wrap("error") };
}
