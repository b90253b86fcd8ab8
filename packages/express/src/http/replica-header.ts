import type { RequestHandler } from "express";

/** Names the replica that served a response, so an operator (or a test) can see where a thread runs. */
export const REPLICA_HEADER = "x-ag-ui-antigravity-replica";

/** Sets `x-ag-ui-antigravity-replica` on every response that passes through the router. */
export function replicaHeader(replicaId: string): RequestHandler {
  return (_request, response, next) => {
    response.setHeader(REPLICA_HEADER, replicaId);
    next();
  };
}
