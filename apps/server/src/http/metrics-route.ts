import type { RequestHandler } from "express";

/** `GET /metrics`: a JSON snapshot, computed per request (it is cheap: counters already kept by the pool and the agents). */
export function createMetricsHandler(snapshot: () => unknown): RequestHandler {
  return (_request, response) => {
    response.set("cache-control", "no-store").json(snapshot());
  };
}
