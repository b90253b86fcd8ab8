import { shieldLogger, silentLogger, type Logger } from "@ag-ui-antigravity/foundation";

/**
 * Where the pool reports what it does (spawns, crashes, back-off, reaping): every package's one
 * logger shape, pino's argument order (`fields`, then `message`), so a pino logger fits as is.
 */
export type PoolLogger = Logger;

/** The default logger: drops everything. */
export const silentPoolLogger: PoolLogger = silentLogger;

export { shieldLogger };
