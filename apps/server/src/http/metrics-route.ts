import type { RequestHandler } from "express";
import type { Registry } from "prom-client";

/**
 * `GET /metrics`: a JSON snapshot, computed per request (it is cheap: counters already kept by the
 * pool and the agents). A Prometheus scraper (it asks for `text/plain` or OpenMetrics) or
 * `?format=prometheus` gets the Prometheus text format from `registry` instead.
 */
export function createMetricsHandler(snapshot: () => unknown, registry?: Registry): RequestHandler {
  return (request, response, next) => {
    response.set("cache-control", "no-store");
    // Scrapers send `text/plain;version=0.0.4` and OpenMetrics types, whose parameters defeat
    // ordinary negotiation; anyone who names JSON, or nothing in particular, gets JSON.
    const accept = (request.get("accept") ?? "").toLowerCase();
    const wantsPrometheus =
      request.query["format"] === "prometheus" || ((accept.includes("text/plain") || accept.includes("openmetrics")) && !accept.includes("application/json"));
    if (registry === undefined || !wantsPrometheus) {
      response.json(snapshot());
      return;
    }
    registry.metrics().then(
      (text) => response.type(registry.contentType).send(text),
      (error: unknown) => next(error),
    );
  };
}
