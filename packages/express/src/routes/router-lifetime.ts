import type { RequestHandler, Response } from "express";
import { sendHttpError } from "../errors/http-error.js";

/** What `createAgentRouter` and `createAntigravityApp` add to what they return: an owner's handle. */
export interface AgentRouterLifetime {
  /**
   * Refuses new requests (503 `SERVER_CLOSED`), ends every request in flight as a client disconnect
   * would (the agent is unsubscribed: its run halts, or a turn waiting on a human stays parked),
   * then closes what the router created itself (the default ownership store). Idempotent. The
   * agents and a store passed in are the caller's to close.
   */
  close(): Promise<void>;
  /** Aborted when `close()` starts. */
  readonly signal: AbortSignal;
  /** Resolves when `close()` has finished: no request of the router is open any more. */
  readonly closed: Promise<void>;
}

/**
 * Tracks the router's open responses, so closing it ends long-lived streams (a `connect` with
 * `stayOpen` never ends by itself) instead of leaving an HTTP server that cannot finish closing.
 */
export class RouterLifetime {
  readonly #controller = new AbortController();
  readonly #open = new Set<Response>();
  #allClosed: (() => void) | undefined;
  #markClosed: () => void = () => undefined;
  readonly #closed = new Promise<void>((resolve) => (this.#markClosed = resolve));
  #closing: Promise<void> | undefined;

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get closed(): Promise<void> {
    return this.#closed;
  }

  /** First in the router: refuses requests once closing began, and tracks the others until they end. */
  readonly admit: RequestHandler = (_request, response, next) => {
    if (this.signal.aborted) {
      sendHttpError(response, { status: 503, code: "SERVER_CLOSED", message: "The server is shutting down; try another replica or later." });
      return;
    }
    this.#open.add(response);
    response.once("close", () => {
      this.#open.delete(response);
      if (this.#open.size === 0) this.#allClosed?.();
    });
    next();
  };

  close(closeOwned: () => Promise<void>): Promise<void> {
    this.#closing ??= (async () => {
      this.#controller.abort(new DOMException("The AG-UI router was closed.", "AbortError"));
      try {
        if (this.#open.size > 0) {
          const drained = new Promise<void>((resolve) => (this.#allClosed = resolve));
          for (const response of this.#open) response.destroy();
          await drained;
        }
        await closeOwned();
      } finally {
        this.#markClosed();
      }
    })();
    return this.#closing;
  }

  /** Adds `close`, `signal` and `closed` to a router or an app (both are functions with properties). */
  attachTo<T extends object>(target: T, closeOwned: () => Promise<void>): T & AgentRouterLifetime {
    return Object.defineProperties(target, {
      close: { value: () => this.close(closeOwned) },
      signal: { get: () => this.signal },
      closed: { get: () => this.closed },
    }) as T & AgentRouterLifetime;
  }
}
