/**
 * Where the emulator's diagnostics go: message-only lines (unlike the packages' `Logger`), as a
 * harness writes them. The emulator never logs to stdout: stdout carries only the OutputConfig frame.
 */
export interface EmulatorLogger {
  /** Routine progress: listening, a conversation created or resumed, shutting down. */
  info(message: string): void;
  /** Something the emulator ignored or worked around (an unknown response id, a refused upgrade, a scenario's stall). */
  warn(message: string): void;
  /** A failure: a turn or a persist that failed, a scenario fault that ends the process, a malformed input event. */
  error(message: string): void;
}

/** Anything `createStreamLogger` can write its lines to: `process.stderr`, or a test's collector. */
export interface StderrLike {
  /** Called with one whole line (newline included) per message; the return value is ignored. */
  write(chunk: string): unknown;
}

/** Writes one line per message to a stderr-like stream, prefixed the way harness diagnostics are read by humans. */
export function createStreamLogger(stream: StderrLike, options: { prefix?: string } = {}): EmulatorLogger {
  const prefix = options.prefix ?? "localharness-emulator";
  const write = (level: string, message: string): void => {
    stream.write(`${new Date().toISOString()} ${level} ${prefix}: ${message}\n`);
  };
  return {
    info: (message) => write("INFO", message),
    warn: (message) => write("WARN", message),
    error: (message) => write("ERROR", message),
  };
}

/** A logger that drops everything; for in-process embedding and unit tests. */
export const silentLogger: EmulatorLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
