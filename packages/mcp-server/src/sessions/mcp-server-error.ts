import { CodedError, nameErrorClass } from "@ag-ui-antigravity/foundation";

/** Why a tool call of this server failed, by kind. Match on codes, never on messages. */
export type McpServerErrorCode = "SESSION_NOT_FOUND" | "SESSION_BUSY" | "SESSION_LOST" | "SESSION_LIMIT" | "SERVER_CLOSED";

/**
 * The errors this package raises. Tool handlers turn them into tool results with `isError: true`
 * and the message, which is written for the MCP client's user.
 */
export class McpServerError extends CodedError<McpServerErrorCode> {
  static {
    nameErrorClass(this, "McpServerError");
  }
}
