// Type-checked copies of the README's examples, so they cannot rot. Not part of the build.
import { CLIENT_ERROR_CODES, CodedError, isClientErrorCode, type AgentReadiness, type ClientErrorCode, type Logger, type RedisCommandClient, type ThreadHoldings } from "./index.js";

/** Any package's error, matched on its code. */
export function describeFailure(error: unknown): string {
  if (CodedError.isInstance(error)) return `${error.code}: ${error.message}`;
  return "unexpected failure";
}

/** What a client should do with a code it received. */
export function clientAdvice(code: string): string {
  if (!isClientErrorCode(code)) return "unknown code";
  const known: ClientErrorCode = code;
  const info = (CLIENT_ERROR_CODES as Record<string, { httpStatus: number | null; meaning: string } | undefined>)[known];
  return info === undefined ? `the model call failed (${known})` : `${info.httpStatus ?? "streamed"}: ${info.meaning}`;
}

/** A logger for every package's `logger` option, without pino: one JSON line per entry on stderr. */
const line =
  (level: string) =>
  (fields: Record<string, unknown>, message?: string): void => {
    process.stderr.write(`${JSON.stringify({ level, message, ...fields })}\n`);
  };
export const jsonLinesLogger: Logger = { debug: () => undefined, info: line("info"), warn: line("warn"), error: line("error") };

/** An ioredis client as the Redis stores' `RedisCommandClient`. */
export function fromIoredis(client: { call(command: string, ...args: string[]): Promise<unknown> }): RedisCommandClient {
  return { sendCommand: ([command = "", ...args]) => client.call(command, ...args) };
}

/** Whatever an agent reports, in one line. */
export function readinessLine(readiness: AgentReadiness): string {
  return readiness.ready ? "ready" : `${readiness.code}: ${readiness.reason}`;
}

/** A thread-holdings view of anything that tracks threads. */
export function holdingsOf(running: ReadonlySet<string>): ThreadHoldings {
  return { threadHolding: (threadId) => (running.has(threadId) ? "running" : "none") };
}
