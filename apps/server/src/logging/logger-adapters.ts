import type { Logger } from "pino";

type Level = "debug" | "info" | "warn" | "error";

/** The `(message, fields)` logger shape of the harness client and the pool (pino's order is the reverse). */
export interface MessageFirstLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** The `(fields, message)` shape of the agent and the Express binding: pino's own order. */
export interface FieldsFirstLogger {
  debug(fields: Record<string, unknown>, message?: string): void;
  info(fields: Record<string, unknown>, message?: string): void;
  warn(fields: Record<string, unknown>, message?: string): void;
  error(fields: Record<string, unknown>, message?: string): void;
}

/** Adapts pino to the packages that take the message first, under a `component` child. */
export function messageFirstLogger(logger: Logger, component: string): MessageFirstLogger {
  const child = logger.child({ component });
  const at =
    (level: Level) =>
    (message: string, fields?: Record<string, unknown>): void =>
      child[level](fields ?? {}, message);
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/** Pino already takes fields first; this only scopes it to a `component`. */
export function fieldsFirstLogger(logger: Logger, component: string): FieldsFirstLogger {
  const child = logger.child({ component });
  const at =
    (level: Level) =>
    (fields: Record<string, unknown>, message?: string): void =>
      message === undefined ? child[level](fields) : child[level](fields, message);
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
