import type { RequestHandler } from "express";

/**
 * Refuses new runs once shutdown has begun, so the runs already streaming can finish without new
 * ones taking their place. Reads (capabilities, health, metrics, the dojo) still work.
 */
export class DrainGate {
  #draining = false;

  get draining(): boolean {
    return this.#draining;
  }

  begin(): void {
    this.#draining = true;
  }

  readonly handler: RequestHandler = (request, response, next) => {
    if (!this.#draining || request.method !== "POST") {
      next();
      return;
    }
    response
      .status(503)
      .set("retry-after", "10")
      .set("connection", "close")
      .json({ error: { code: "SHUTTING_DOWN", message: "The server is shutting down; no new runs are accepted." } });
  };
}

/**
 * Resolves once `busy()` reports nothing in flight, or when `timeoutMs` has passed (to `false`).
 * Polling is enough here: it runs once, at shutdown, for a few seconds at most.
 */
export async function waitUntilIdle(busy: () => number, timeoutMs: number, intervalMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (busy() > 0) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, Math.max(deadline - Date.now(), 0))));
  }
  return true;
}
