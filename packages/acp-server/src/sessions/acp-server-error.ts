import { CodedError, nameErrorClass } from "@ag-ui-antigravity/foundation";

/** Why a request to this server failed, by kind. Match on codes, never on messages. */
export type AcpServerErrorCode = "SESSION_NOT_FOUND" | "SESSION_BUSY" | "SESSION_LIMIT" | "INVALID_REQUEST" | "SERVER_CLOSED";

/**
 * The errors this package raises. Request handlers answer them as JSON-RPC errors whose message is
 * written for the client's user and whose `data.code` is the code.
 */
export class AcpServerError extends CodedError<AcpServerErrorCode> {
  static {
    nameErrorClass(this, "AcpServerError");
  }
}
