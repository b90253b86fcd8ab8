import { Lifetime } from "@ag-ui-antigravity/foundation";
import type { RequestHandler, Response } from "express";
import { httpError, sendHttpError } from "../errors/http-error.js";

/** Options of the router's `close()`. */
export interface AgentRouterCloseOptions {
  /**
   * How long runs in flight (`POST <path>` and `…/run`) get to finish by themselves before they are
   * ended; new requests are refused meanwhile, and `connect` streams keep following their runs.
   * Default 0: everything in flight is ended at once.
   */
  drainMs?: number;
}

/** What `createAgentRouter` and `createAntigravityApp` add to what they return: an owner's handle. */
export interface AgentRouterLifetime {
  /**
   * Refuses new requests (503 `SERVER_CLOSED`), lets runs in flight finish for up to `drainMs`,
   * then ends every request still open as a client disconnect would (the agent is unsubscribed: its
   * run halts, or a turn waiting on a human stays parked), then closes what the router created
   * itself (the default ownership store). Idempotent. The agents and a store passed in are the
   * caller's to close.
   */
  close(options?: AgentRouterCloseOptions): Promise<void>;
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
  readonly #lifetime = new Lifetime();
  readonly signal = this.#lifetime.signal;
  readonly closed = this.#lifetime.closed;
  readonly #open = new Set<Response>();
  readonly #runs = new Set<Response>();
  /** Called each time a tracked response ends; `#until` waits with them. */
  readonly #onResponseEnded = new Set<() => void>();

  /** First in the router: refuses requests once closing began, and tracks the others until they end. */
  readonly admit: RequestHandler = (_request, response, next) => this.#admit(response, next, false);

  /** `admit` for a run: a drain lets it finish instead of ending it. */
  readonly admitRun: RequestHandler = (_request, response, next) => this.#admit(response, next, true);

  close(options: AgentRouterCloseOptions, closeOwned: () => Promise<void>): Promise<void> {
    return this.#lifetime.close(
      () => new DOMException("The AG-UI router was closed.", "AbortError"),
      async () => {
        const drainMs = options.drainMs ?? 0;
        if (drainMs > 0) await this.#until(() => this.#runs.size === 0, drainMs);
        for (const response of this.#open) response.destroy();
        await this.#until(() => this.#open.size === 0);
        await closeOwned();
      },
    );
  }

  /** Adds `close`, `signal` and `closed` to a router or an app (both are functions with properties). */
  attachTo<T extends object>(target: T, closeOwned: () => Promise<void>): T & AgentRouterLifetime {
    return Object.defineProperties(target, {
      close: { value: (options: AgentRouterCloseOptions = {}) => this.close(options, closeOwned) },
      signal: { get: () => this.signal },
      closed: { get: () => this.closed },
    }) as T & AgentRouterLifetime;
  }

  #admit(response: Response, next: () => void, isRun: boolean): void {
    if (this.signal.aborted) {
      sendHttpError(response, httpError("SERVER_CLOSED", "The server is shutting down; try another replica or later."));
      return;
    }
    this.#open.add(response);
    if (isRun) this.#runs.add(response);
    response.once("close", () => {
      this.#open.delete(response);
      this.#runs.delete(response);
      for (const check of this.#onResponseEnded) check();
    });
    next();
  }

  /** Resolves once `done()` holds (checked as responses end), or after `timeoutMs`. */
  #until(done: () => boolean, timeoutMs?: number): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.#onResponseEnded.delete(check);
        resolve();
      };
      const check = (): void => {
        if (done()) finish();
      };
      const timer = timeoutMs === undefined ? undefined : setTimeout(finish, timeoutMs);
      this.#onResponseEnded.add(check);
    });
  }
}
