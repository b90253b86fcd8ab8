import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "pino";

/** The error body the Express binding uses too: `{ error: { code, message } }`. */
function errorBody(code: string, message: string): { error: { code: string; message: string } } {
  return { error: { code, message } };
}

export const notFoundHandler: RequestHandler = (request, response) => {
  response.status(404).json(errorBody("NOT_FOUND", `No route for ${request.method} ${request.path}.`));
};

/**
 * The last resort. Static-file errors carry their own status (404 for a missing asset); anything
 * else is a 500 whose details go to the log, not to the client.
 */
export function createErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, request, response, next) => {
    const status = typeof error === "object" && error !== null && "status" in error && typeof error.status === "number" ? error.status : 500;
    if (status >= 500) logger.error({ err: error, method: request.method, path: request.path }, "request failed");
    if (response.headersSent) {
      next(error);
      return;
    }
    if (status === 404) response.status(404).json(errorBody("NOT_FOUND", `No file for ${request.path}.`));
    else if (status < 500) response.status(status).json(errorBody("BAD_REQUEST", "The request could not be served."));
    else response.status(500).json(errorBody("INTERNAL_ERROR", "The server failed to handle the request."));
  };
}
