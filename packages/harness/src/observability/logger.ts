import { shieldLogger, silentLogger, type Logger } from "@ag-ui-antigravity/foundation";

/**
 * Where the package reports what it does: every package's one logger shape, pino's argument order
 * (`fields`, then `message`), so a pino logger fits as is. The package never imports a logging
 * library itself; a partial logger works, and a logger that throws never fails a turn.
 */
export type HarnessLogger = Logger;

/** The default logger: drops everything. */
export const noopLogger: HarnessLogger = silentLogger;

export { shieldLogger as toHarnessLogger };
