import * as agUiClient from "@ag-ui/client";
import { type BaseEvent, EventType, type HttpAgentConfig, HttpAgent, type RunAgentInput } from "@ag-ui/client";
import { CodedError, nameErrorClass } from "@ag-ui-antigravity/foundation";
import { Observable } from "rxjs";
import { readSseMessages } from "./sse-event-reader.js";

/** `HttpAgentConfig` plus where and how often `AntigravityHttpAgent` reconnects to a dropped stream. */
export interface AntigravityHttpAgentConfig extends HttpAgentConfig {
  /** The agent's connect route; default `<url>/connect` (what `createAgentRouter` serves). */
  connectUrl?: string;
  /** Reconnects in a row without receiving an event before a dropped stream is given up on. Default 5. */
  maxReconnectAttempts?: number;
  /** Pause before each reconnect, in ms, doubled after each failed one. Default 500. */
  reconnectDelayMs?: number;
}

/**
 * A failed HTTP exchange, with the binding's JSON error body when there was one. `code` is the
 * body's `error.code` (the binding's error codes, README "Errors"), or `HTTP_ERROR` without one.
 */
export class HttpStreamError extends CodedError<string> {
  /** The response's HTTP status (outside 200–299: 4xx and 5xx from the binding). */
  readonly status: number;
  /** The response body: the parsed JSON for a JSON response (the binding's `{ error: { code, message } }`), else its text. */
  readonly payload: unknown;

  static {
    nameErrorClass(this, "HttpStreamError");
  }

  constructor(status: number, payload: unknown) {
    super(errorCodeOf(payload) ?? "HTTP_ERROR", `HTTP ${status}: ${typeof payload === "string" ? payload : JSON.stringify(payload)}`);
    this.status = status;
    this.payload = payload;
  }
}

function errorCodeOf(payload: unknown): string | undefined {
  if (typeof payload !== "object" || payload === null) return undefined;
  const error: unknown = (payload as { error?: unknown }).error;
  if (typeof error !== "object" || error === null) return undefined;
  const code: unknown = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

/**
 * `@ag-ui/client`'s `HttpAgent` with AG-UI's reconnect: `connectAgent()` works (against the
 * binding's connect route), and a stream that drops mid-run (a phone changing network, a laptop
 * waking, a proxy cutting it) is resumed: the agent asks the connect route again with the SSE
 * `Last-Event-ID` it last saw, and the events continue where they stopped, none twice. Runs need
 * an agent that lets runs outlive their client (`AntigravityAgent`'s `reconnect.onDisconnect:
 * "continue"`). `connectAgent({ forwardedProps: { stayOpen: true } })` keeps following the thread
 * for turns the server starts, reconnecting whenever the stream drops, until `abortRun()`.
 *
 * @example
 * const agent = new AntigravityHttpAgent({ url: "http://localhost:8027/chat", threadId });
 * await agent.connectAgent(); // a reloaded page gets the thread back, or the run in flight
 */
export class AntigravityHttpAgent extends HttpAgent {
  /** Where `connectAgent()` and every reconnect go; from the config, default `<url>/connect`. */
  connectUrl: string;
  /** Reconnects in a row that bring no event before the stream fails with an error. Default 5. */
  maxReconnectAttempts: number;
  /** Pause before the first reconnect of a row, in ms, doubled for each further one. Default 500. */
  reconnectDelayMs: number;

  constructor(config: AntigravityHttpAgentConfig) {
    super(config);
    this.connectUrl = config.connectUrl ?? `${config.url.replace(/\/+$/, "")}/connect`;
    this.maxReconnectAttempts = config.maxReconnectAttempts ?? 5;
    this.reconnectDelayMs = config.reconnectDelayMs ?? 500;
  }

  /**
   * Posts the run to `url` and streams its events; if the stream drops while the run is open (after
   * `RUN_STARTED`, before `RUN_FINISHED`/`RUN_ERROR`), resumes it through `connectUrl` with
   * `Last-Event-ID`. An HTTP error answer fails with `HttpStreamError` and is not retried.
   */
  override run(input: RunAgentInput): Observable<BaseEvent> {
    return this.#stream(input, this.url, false);
  }

  /**
   * What `connectAgent()` streams: the agent's `connect` answer from `connectUrl` (for
   * `AntigravityAgent`, the thread's messages, state and pending interrupts, or the run in flight),
   * resumed like `run`; with `forwardedProps.stayOpen: true`, followed until `abortRun()`.
   */
  protected override connect(input: RunAgentInput): Observable<BaseEvent> {
    // A connect may follow an aborted run, whose controller would cancel it at once.
    if (this.abortController.signal.aborted) this.abortController = new AbortController();
    const stayOpen = (input.forwardedProps as Record<string, unknown> | undefined)?.["stayOpen"] === true;
    return this.#stream(input, this.connectUrl, stayOpen);
  }

  /** A copy as `HttpAgent.clone()` makes it (url, headers, thread, messages, state), plus `connectUrl` and the reconnect settings. */
  override clone(): AntigravityHttpAgent {
    const copy = super.clone() as AntigravityHttpAgent;
    copy.connectUrl = this.connectUrl;
    copy.maxReconnectAttempts = this.maxReconnectAttempts;
    copy.reconnectDelayMs = this.reconnectDelayMs;
    return copy;
  }

  /**
   * The events of one request, resumed through the connect route while a run is open (or, when
   * `follow`, whenever the stream drops), until the run ends, `abortRun()`, or unsubscription.
   */
  #stream(input: RunAgentInput, firstUrl: string, follow: boolean): Observable<BaseEvent> {
    return new Observable<BaseEvent>((subscriber) => {
      const local = new AbortController();
      const runAbort = this.abortController.signal;
      const onRunAbort = (): void => local.abort(runAbort.reason);
      runAbort.addEventListener("abort", onRunAbort, { once: true });
      let lastEventId: string | undefined;
      let runOpen = false;

      const request = async (url: string): Promise<void> => {
        // HttpAgent's own request (headers, and the body as this client version sends it), made resumable.
        const init = this.requestInit(enforceOutgoingInput?.(input) ?? input);
        const headers = new Headers(init.headers);
        headers.set("Accept", "text/event-stream");
        if (lastEventId !== undefined) headers.set("Last-Event-ID", lastEventId);
        const response = await this.fetch(url, { ...init, headers, signal: local.signal });
        if (!response.ok) throw new HttpStreamError(response.status, await readPayload(response));
        if (response.body === null) return;
        await readSseMessages(
          response.body,
          (message) => {
            const event = JSON.parse(message.data) as BaseEvent;
            if (message.id !== undefined) lastEventId = message.id;
            if (event.type === EventType.RUN_STARTED) runOpen = true;
            else if (event.type === EventType.RUN_FINISHED || event.type === EventType.RUN_ERROR) runOpen = false;
            subscriber.next(event);
          },
          local.signal,
        );
      };

      void (async () => {
        let url = firstUrl;
        let failures = 0;
        for (;;) {
          const seenBefore = lastEventId;
          try {
            await request(url);
          } catch (error) {
            if (local.signal.aborted) break;
            // The server answered, and said no: retrying would get the same answer.
            if (error instanceof HttpStreamError || error instanceof SyntaxError) {
              subscriber.error(error);
              return;
            }
          }
          if (local.signal.aborted || subscriber.closed) break;
          if (!runOpen && !follow) break;
          failures = lastEventId !== seenBefore ? 1 : failures + 1;
          if (failures > this.maxReconnectAttempts) {
            subscriber.error(new Error(`The event stream dropped and ${this.maxReconnectAttempts} reconnects in a row brought nothing.`));
            return;
          }
          await pause(this.reconnectDelayMs * 2 ** (failures - 1), local.signal);
          if (local.signal.aborted) break;
          url = this.connectUrl;
        }
        subscriber.complete();
      })();

      return () => {
        runAbort.removeEventListener("abort", onRunAbort);
        local.abort();
      };
    });
  }
}

/**
 * The check `HttpAgent.run` applies to what it sends (@ag-ui/client 1.x: unknown properties
 * stripped with a warning, a malformed known field refused before anything is sent), so this client
 * sends what the stock one would. Read from the namespace: the 0.0.x clients the peer range allows
 * do not have it, and there the input goes as is, as their HttpAgent sends it.
 */
const enforceOutgoingInput = (agUiClient as { enforceOutgoingInput?: (input: RunAgentInput) => RunAgentInput }).enforceOutgoingInput;

async function readPayload(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!(response.headers.get("content-type") ?? "").includes("application/json")) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Waits `ms`, or less when `signal` aborts. Not foundation's `pause`: this entry runs in browsers
 * (the dojo bundles it), and that one is built on `node:timers/promises`.
 */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
