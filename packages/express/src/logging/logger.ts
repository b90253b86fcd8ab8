import { shieldLogger, silentLogger, type Logger } from "@ag-ui-antigravity/foundation";

/**
 * Where the binding reports what it does: every package's one logger shape, pino's argument order
 * (`fields`, then `message`), so a pino logger fits as is; the package never imports a logging
 * library itself.
 */
export type ExpressBindingLogger = Logger;

/** The default logger: drops everything. */
export const noopLogger: ExpressBindingLogger = silentLogger;

export { shieldLogger as toBindingLogger };
