import { pino, type DestinationStream, type Logger, type LoggerOptions } from "pino";

/**
 * Secrets never reach the log: the Gemini key wherever a config object carries it, the harness's
 * per-process key, and credentials in request headers. Pino fixes redaction paths at construction
 * and wildcards in the middle of a path are slow, so the paths are listed exactly.
 */
const redactedPaths = [
  "apiKey",
  "config.apiKey",
  "harness.apiKey",
  "env.GEMINI_API_KEY",
  "GEMINI_API_KEY",
  "headers.authorization",
  "headers.cookie",
  'headers["x-api-key"]',
  'headers["x-goog-api-key"]',
  "req.headers.authorization",
  "req.headers.cookie",
  'req.headers["x-api-key"]',
];

export interface CreateLoggerOptions {
  /** `LOG_LEVEL`; default `info`. */
  level?: string;
  /** Human-readable lines (pino-pretty) instead of JSON; main.ts turns it on when stdout is a terminal. */
  pretty?: boolean;
}

/** `destination` replaces stdout (JSON output only); the tests read the lines from it. */
export function createLogger(options: CreateLoggerOptions = {}, destination?: DestinationStream): Logger {
  const settings: LoggerOptions = {
    level: options.level ?? "info",
    base: { service: "ag-ui-antigravity-demo" },
    redact: { paths: redactedPaths, censor: "[redacted]" },
  };
  if (options.pretty === true) {
    // A worker-thread transport, so formatting never blocks the event loop that serves streams.
    return pino({ ...settings, transport: { target: "pino-pretty", options: { colorize: true, translateTime: "SYS:HH:MM:ss.l", ignore: "pid,hostname,service" } } });
  }
  return destination === undefined ? pino(settings) : pino(settings, destination);
}
