import { HttpAgent } from "@ag-ui/client";
import type { RunAgentInput } from "@ag-ui/core";
import { lastValueFrom, toArray } from "rxjs";
import { describe, expect, it, vi } from "vitest";
import { AntigravityHttpAgent } from "./antigravity-http-agent.js";

/** A fetch that keeps each request body and answers with a run that starts and finishes. */
function recordingFetch() {
  const bodies: unknown[] = [];
  const fetch = async (_url: string, init: RequestInit): Promise<Response> => {
    const input = JSON.parse(String(init.body)) as RunAgentInput;
    bodies.push(input);
    const events = [
      { type: "RUN_STARTED", threadId: input.threadId, runId: input.runId },
      { type: "RUN_FINISHED", threadId: input.threadId, runId: input.runId },
    ];
    return new Response(events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join(""), { headers: { "content-type": "text/event-stream" } });
  };
  return { fetch, bodies };
}

const input = { threadId: "t1", runId: "r1", messages: [], tools: [], context: [], state: {}, forwardedProps: {} } satisfies RunAgentInput;

describe("AntigravityHttpAgent's request", () => {
  it("sends what the stock HttpAgent sends: a property RunAgentInput does not have is stripped from both", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      const ours = recordingFetch();
      const stock = recordingFetch();
      const hostile = { ...input, injected: { admin: true } } as RunAgentInput;
      await lastValueFrom(new AntigravityHttpAgent({ url: "http://server.invalid/chat", fetch: ours.fetch }).run(hostile).pipe(toArray()));
      await lastValueFrom(new HttpAgent({ url: "http://server.invalid/chat", fetch: stock.fetch }).run(hostile).pipe(toArray()));
      expect(stock.bodies).toEqual([input]);
      expect(ours.bodies).toEqual(stock.bodies);
    } finally {
      warn.mockRestore();
    }
  });

  it("refuses, as the stock HttpAgent does, a known field of the wrong type before anything is sent", async () => {
    const ours = recordingFetch();
    const malformed = { ...input, messages: "not a list" } as unknown as RunAgentInput;
    await expect(lastValueFrom(new AntigravityHttpAgent({ url: "http://server.invalid/chat", fetch: ours.fetch }).run(malformed))).rejects.toThrow();
    expect(ours.bodies).toEqual([]);
  });
});
