const brand = Symbol.for("ag-ui-antigravity.McpServerError");

/** Why a tool call of this server failed, by kind. Match on codes, never on messages. */
export type McpServerErrorCode = "SESSION_NOT_FOUND" | "SESSION_BUSY" | "SESSION_LOST" | "SESSION_LIMIT" | "SERVER_CLOSED";

/**
 * The errors this package raises. Tool handlers turn them into tool results with `isError: true`
 * and the message, which is written for the MCP client's user.
 */
export class McpServerError extends Error {
  readonly code: McpServerErrorCode;
  readonly [brand] = true;

  constructor(code: McpServerErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "McpServerError";
    this.code = code;
  }

  /** Works across the ESM and CJS builds, where `instanceof` does not. */
  static isInstance(value: unknown): value is McpServerError {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
  }
}
