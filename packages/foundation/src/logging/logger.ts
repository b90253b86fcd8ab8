import type { LogFields, Logger } from "@ag-ui-antigravity/core";

const ignore = (): void => undefined;

/** The default logger: drops everything. */
export const silentLogger: Logger = Object.freeze({ debug: ignore, info: ignore, warn: ignore, error: ignore });

/** Fields that carry ids a client chose (any length: a 900 kB thread id is valid AG-UI input). */
const CLIENT_ID_FIELDS = ["threadId", "runId", "messageId", "toolCallId", "parentRunId", "interruptId", "sessionId"] as const;

/** An id logged longer than this is cut, and says how long it was. */
export const MAX_LOGGED_ID_LENGTH = 128;

/** An id as a log line shows it: whole up to `MAX_LOGGED_ID_LENGTH`, else its start and its length. */
export function loggedId(id: string): string {
  return id.length <= MAX_LOGGED_ID_LENGTH ? id : `${id.slice(0, MAX_LOGGED_ID_LENGTH - 32)}…(${id.length} characters)`;
}

/** `fields` with its client-chosen ids cut (a copy only when one is too long). */
function boundedFields(fields: LogFields): LogFields {
  let bounded: LogFields | undefined;
  for (const name of CLIENT_ID_FIELDS) {
    const value = fields[name];
    if (typeof value === "string" && value.length > MAX_LOGGED_ID_LENGTH) {
      bounded ??= { ...fields };
      bounded[name] = loggedId(value);
    }
  }
  return bounded ?? fields;
}

/**
 * A full logger from one that may have only some of the levels, which never throws: a broken log
 * sink must not fail a turn, a response or the pool's books halfway through a crash report. Ids a
 * client chose (`threadId`, `runId`, …) are cut to `MAX_LOGGED_ID_LENGTH`, so one request cannot
 * make the server write megabytes of log.
 */
export function shieldLogger(logger: Partial<Logger> | undefined): Logger {
  if (logger === undefined) return silentLogger;
  const at =
    (level: keyof Logger) =>
    (fields: LogFields, message?: string): void => {
      const method = logger[level];
      if (typeof method !== "function") return;
      try {
        if (message === undefined) method.call(logger, boundedFields(fields));
        else method.call(logger, boundedFields(fields), message);
      } catch {
        // Logging is best effort.
      }
    };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}
