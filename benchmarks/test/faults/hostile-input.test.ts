// Input built to hurt: client tool schemas that cost seconds to compile or gigabytes to sample, an
// upstream error that quotes the key, attachments that are not base64, answers in shapes nobody
// reads, histories that cannot be matched, and builtins pointed through symlinks.
import { randomUUID } from "node:crypto";
import { existsSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { Agent } from "node:http";
import { loadavg } from "node:os";
import { join } from "node:path";
import type { Message, Tool } from "@ag-ui/core";
import { loadScaledMs } from "@ag-ui-antigravity/testing";
import { describe, expect, it } from "vitest";
import { hostileSchema } from "../../../fixtures/inputs/hostile-schema.mjs";
import { postRaw, postRun, reliabilityModel, runInput, ThreadClient, userMessage, useStacks } from "../support/stack.js";

const { startStack, scratchDir } = useStacks();

/** Every SSE event of a response, parsed. */
async function eventsOf(response: Response): Promise<Array<Record<string, unknown>>> {
  const text = await response.text();
  return text
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => JSON.parse(line.slice(5)) as Record<string, unknown>);
}

function percentile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

describe("client tool schemas", () => {
  it("a 1 MiB hostile schema is refused with a 400 naming the limit within 1 s, while /healthz keeps answering", async () => {
    const stack = await startStack({ chat: { model: reliabilityModel } }, { maxBodyBytes: 2 * 1024 * 1024 });
    const tool: Tool = { name: "hostile", description: "", parameters: hostileSchema(1024 * 1024) };
    // Encoded up front: the probes below measure the server's event loop, not this client's stringify.
    const body = Buffer.from(JSON.stringify(runInput({ messages: [userMessage("hi")], tools: [tool] })));
    const connections = new Agent({ keepAlive: true });
    const probe = async (): Promise<number> => {
      const started = performance.now();
      const reply = await fetch(`${stack!.url}/healthz`);
      await reply.arrayBuffer();
      return performance.now() - started;
    };
    // The same probes with nothing else going on, so the figure can be read against the machine's load.
    const baseline: number[] = [];
    for (let index = 0; index < 20; index += 1) baseline.push(await probe());
    const latencies: number[] = [];
    let polling = true;
    const poll = (async () => {
      while (polling) {
        latencies.push(await probe());
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    const elapsed: number[] = [];
    try {
      for (let round = 0; round < 5; round += 1) {
        const started = performance.now();
        const reply = await postRaw(new URL(`${stack.url}/chat`), connections, body, { "content-type": "application/json" });
        elapsed.push(performance.now() - started);
        expect(reply.status).toBe(400);
        const error = (JSON.parse(reply.body) as { error: { code: string; message: string } }).error;
        expect(error.code).toBe("INVALID_TOOL_SCHEMA");
        expect(error.message).toMatch(/hostile.*limit maxProperties/);
      }
    } finally {
      polling = false;
      await poll;
      connections.destroy();
    }
    const p99 = percentile(latencies, 0.99);
    console.info(
      `hostile schema: ${(body.length / 2 ** 20).toFixed(2)} MiB, 5 requests each refused with 400 in ${elapsed.map((ms) => Math.round(ms)).join("/")} ms; ` +
        `/healthz p50 ${Math.round(percentile(latencies, 0.5))} ms, p99 ${Math.round(p99)} ms over ${latencies.length} probes ` +
        `(alone: p50 ${Math.round(percentile(baseline, 0.5))} ms, p99 ${Math.round(percentile(baseline, 0.99))} ms; load average ${loadavg()[0]?.toFixed(1)})`,
    );
    // The targets are 1 s and 100 ms (RELIABILITY.md records the figures); the bounds here leave room
    // for a loaded 2-core CI machine (stretched by its load, at most 6×: a clean-clone run beside four
    // others took 3.1 s) and still fail by far on the 49 s ajv took to compile such a schema.
    expect(Math.max(...elapsed)).toBeLessThan(loadScaledMs(3_000));
    expect(p99).toBeLessThan(loadScaledMs(1_500));
  }, 180_000);

  it("a tool whose schema asks for 1e8 items is sampled within bounds: the call arrives, and a neighbour on the same harness process is served meanwhile", async () => {
    const stack = await startStack({ chat: { model: reliabilityModel, pool: { maxConversationsPerProcess: 8 } } });
    const fillRows: Tool = {
      name: "fill_rows",
      description: "Fills a table",
      parameters: { type: "object", properties: { rows: { type: "array", minItems: 1e8, items: { type: "string", minLength: 1e6 } } }, required: ["rows"] },
    };
    const hostile = new ThreadClient(`${stack.url}/chat`);
    const neighbour = new ThreadClient(`${stack.url}/chat`);
    const started = performance.now();
    await Promise.all([hostile.say("fill rows", { tools: [fillRows] }), neighbour.say("hello")]);
    const elapsedMs = performance.now() - started;
    expect(neighbour.lastAssistantText()).toBe("ok: hello");
    const args = hostile.events
      .filter((event) => event.type === "TOOL_CALL_ARGS")
      .map((event) => String((event as unknown as { delta: string }).delta))
      .join("");
    const rows = (JSON.parse(args) as { rows: string[] }).rows;
    expect(rows.length).toBeLessThanOrEqual(32);
    const metrics = (await stack.agents.chat!.poolMetrics()) as { processes: number; crashes?: number };
    expect(metrics.processes).toBe(1);
    console.info(`minItems 1e8: tool call with ${rows.length} rows and the neighbour's answer in ${Math.round(elapsedMs)} ms, on one process`);
  });
});

describe("what leaves the server", () => {
  it("a model error quoting the API key, a key= URL, paths and a stack reaches the client with none of them", async () => {
    const apiKey = "AIzaPlantedKey-0123456789-abcdefghijklmn";
    const sandbox = scratchDir("reliability-ws-");
    const stack = await startStack({ chat: { model: reliabilityModel, apiKey, workspaceRoot: sandbox } });
    const client = new ThreadClient(`${stack.url}/chat`);
    await client.say("leak secrets");
    const error = client.runError;
    expect(error?.code).toBe("MODEL_ERROR_400");
    const message = error?.message ?? "";
    expect(message).toMatch(/API key not valid/);
    expect(message).not.toContain(apiKey);
    expect(message).not.toMatch(/key=(?!\[redacted\])/);
    expect(message).not.toMatch(/\/opt\/antigravity|reliability-ws-|client\.go|model\.js|credentials\.json/);
    // The finished runs name the model without the scenario's path on the server.
    await client.say("hello");
    const usage = (client.finished as { usage?: Array<{ model?: string }> } | undefined)?.usage ?? [];
    for (const entry of usage) expect(entry.model ?? "").not.toContain("/");
    console.info(`redaction: RUN_ERROR message ${JSON.stringify(message)}`);
  });
});

describe("bad answers and histories", () => {
  it("an attachment that is not base64 is a 400 naming it, and the thread's next run works with the refused message still in its history", async () => {
    const stack = await startStack({ chat: { model: reliabilityModel } });
    const threadId = randomUUID();
    const garbage: Message = { id: randomUUID(), role: "user", content: [{ type: "text", text: "see this" }, { type: "image", source: { type: "data", value: "%%% not base64 %%%", mimeType: "image/png" } }] } as Message;
    const refused = await postRun(`${stack.url}/chat`, { threadId, messages: [garbage] });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "INVALID_INPUT", message: expect.stringMatching(/attachment.*not valid base64/) });
    // An AG-UI client resends its history, the refused message included: it goes with a note now.
    const later = await postRun(`${stack.url}/chat`, { threadId, messages: [garbage, userMessage("hello again")] });
    const events = await eventsOf(later);
    expect(events.map((event) => event.type)).toContain("RUN_FINISHED");
    expect(events.some((event) => event.type === "RUN_ERROR")).toBe(false);
  });

  it("an answer in an unknown shape ({answer: \"Go\"}) is a 400, the question stays parked, and a readable answer then resolves it", async () => {
    const stack = await startStack({ chat: { model: reliabilityModel, builtinTools: ["ask_question"] } });
    const threadId = randomUUID();
    const ask = userMessage("ask");
    const asked = await eventsOf(await postRun(`${stack.url}/chat`, { threadId, messages: [ask] }));
    const finished = asked.find((event) => event.type === "RUN_FINISHED") as { outcome?: { interrupts?: Array<{ id: string }> } } | undefined;
    const interruptId = finished?.outcome?.interrupts?.[0]?.id;
    expect(interruptId).toBeDefined();
    const refused = await postRun(`${stack.url}/chat`, { threadId, messages: [ask], resume: [{ interruptId: interruptId!, status: "resolved", payload: { answer: "Go" } }] } as never);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "INVALID_ANSWER", message: expect.stringMatching(/"answer"/) });
    expect(stack.agents.chat!.stats().sessions.parkedSessions).toBe(1);
    const answered = await eventsOf(await postRun(`${stack.url}/chat`, { threadId, messages: [ask], resume: [{ interruptId: interruptId!, status: "resolved", payload: "Go" }] } as never));
    const text = answered.filter((event) => event.type === "TEXT_MESSAGE_CONTENT").map((event) => String(event.delta)).join("");
    expect(text).toContain("You answered Go");
  });

  it("a history with a repeated message id is a 400 with the reason; one of 501 user messages is served (threads are not capped)", async () => {
    const stack = await startStack({ chat: { model: reliabilityModel } });
    const threadId = randomUUID();
    const first = userMessage("one");
    const repeated = await postRun(`${stack.url}/chat`, { threadId, messages: [first, { id: first.id, role: "user", content: "two" }] });
    expect(repeated.status).toBe(400);
    expect(((await repeated.json()) as { error: { message: string } }).error.message).toMatch(/repeats the id/);
    // Nothing of it reached the thread: a normal run on it starts a fresh conversation.
    const events = await eventsOf(await postRun(`${stack.url}/chat`, { threadId, messages: [userMessage("hi")] }));
    expect(events.some((event) => event.type === "RUN_FINISHED")).toBe(true);
    const long = Array.from({ length: 501 }, (_, index) => userMessage(`m${index}`));
    const longEvents = await eventsOf(await postRun(`${stack.url}/chat`, { threadId: randomUUID(), messages: long }));
    expect(longEvents.some((event) => event.type === "RUN_FINISHED")).toBe(true);
  });
});

describe("emulator builtins and symlinks", () => {
  it("search_directory does not follow a link out of the workspace, and create_file through a dangling link writes nothing outside", async () => {
    const sandbox = realpathSync(scratchDir("reliability-links-"));
    const workspaceRoot = join(sandbox, "workspaces");
    const outsideFile = join(sandbox, "outside.txt");
    writeFileSync(outsideFile, "secret line OUTSIDE-MARKER\n");
    const outsideTarget = join(sandbox, "created-outside.txt");
    const stack = await startStack({
      chat: { model: reliabilityModel, workspaceRoot, builtinTools: ["search_directory", "create_file"], policies: [{ tool: "create_file", decision: "allow" }] },
    });
    const client = new ThreadClient(`${stack.url}/chat`);
    await client.say("where");
    const workspace = client.lastAssistantText().replace(/^workspace=/, "");
    symlinkSync(outsideFile, join(workspace, "looks-local.txt"));
    symlinkSync(outsideTarget, join(workspace, "dangling"));
    await client.say("search for the marker");
    expect(client.lastAssistantText()).not.toContain("OUTSIDE-MARKER");
    await client.say("create through the link");
    expect(existsSync(outsideTarget)).toBe(false);
  });
});
