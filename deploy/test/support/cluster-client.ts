import { HttpAgent } from "@ag-ui/client";
import type { BaseEvent, Message, Tool } from "@ag-ui/core";

/** What one run through the proxy looked like to the client. */
export interface TurnResult {
  /** The replica that served it (`x-ag-ui-antigravity-replica`). */
  replica: string | null;
  status: number;
  events: BaseEvent[];
  /** The last assistant text of the run. */
  reply: string;
  runError: { code?: string; message: string } | undefined;
  /** Set when the request itself failed (an HTTP error status, a dropped connection). */
  requestError: Error | undefined;
}

/** A chat thread driven through the proxy with @ag-ui/client's HttpAgent, as a browser app would. */
export class ClusterThread {
  readonly agent: HttpAgent;
  readonly #served: { replica: string | null; status: number }[] = [];

  /** The HTTP status of every response the thread's client got, in order. */
  get statuses(): number[] {
    return this.#served.map((served) => served.status);
  }
  #nextId = 0;

  constructor(url: string, threadId: string) {
    this.agent = new HttpAgent({
      url,
      threadId,
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        this.#served.push({ replica: response.headers.get("x-ag-ui-antigravity-replica"), status: response.status });
        return response;
      },
    });
  }

  get threadId(): string {
    return this.agent.threadId;
  }

  /** Sends a user message (or only `extraMessages`, e.g. a tool result) and waits for the run to end. */
  async turn(text: string | undefined, options: { tools?: Tool[]; extraMessages?: Message[]; forwardedProps?: Record<string, unknown> } = {}): Promise<TurnResult> {
    if (options.extraMessages !== undefined) this.agent.addMessages(options.extraMessages);
    if (text !== undefined) this.agent.addMessage({ id: `${this.threadId}-user-${(this.#nextId += 1)}`, role: "user", content: text });
    const events: BaseEvent[] = [];
    let runError: TurnResult["runError"];
    let requestError: Error | undefined;
    const before = this.#served.length;
    try {
      await this.agent.runAgent(
        { ...(options.tools === undefined ? {} : { tools: options.tools }), ...(options.forwardedProps === undefined ? {} : { forwardedProps: options.forwardedProps }) },
        {
          onEvent: ({ event }) => void events.push(event),
          onRunErrorEvent: ({ event }) => {
            runError = { ...(event.code === undefined ? {} : { code: event.code }), message: event.message };
          },
        },
      );
    } catch (error) {
      requestError = error as Error;
    }
    const served = this.#served[before] ?? { replica: null, status: 0 };
    const reply = [...this.agent.messages].reverse().find((message) => message.role === "assistant" && typeof message.content === "string" && message.content !== "");
    return { replica: served.replica, status: served.status, events, reply: typeof reply?.content === "string" ? reply.content : "", runError, requestError };
  }
}
