// 10 000 hostile request bodies against a real server: each must get a 4xx JSON reason without
// reaching the agent, the server must keep serving, and its heap must come back to where it was.
import { Agent } from "node:http";
import { gzipSync } from "node:zlib";
import { loadScaledMs } from "@ag-ui-antigravity/testing";
import { describe, expect, it } from "vitest";
import { postRaw, type RawReply, reliabilityModel, runInput, settledHeapBytes, ThreadClient, useStacks } from "../support/stack.js";

const { startStack } = useStacks();

/** A seeded generator, so a failure can be replayed case by case. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface FuzzCase {
  kind: string;
  body: Buffer;
  headers: Record<string, string>;
  /** Acceptable statuses; every case is a 4xx. */
  statuses: number[];
}

const MAX_BODY_BYTES = 64 * 1024;
/** Appears in hostile values; an error reply must never echo it. */
const MARKER = "FUZZ-MARKER-7f3a";
const json = { "content-type": "application/json" };

function nested(depth: number, open: string, close: string, inner = "1"): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

const wrongTypes: unknown[] = [null, 7, -1.5, true, "text", [], {}, [MARKER], { [MARKER]: MARKER }];

/** One schema-invalid mutation of a valid RunAgentInput. */
function schemaInvalid(random: () => number): unknown {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)]!;
  const input = runInput({ messages: [{ id: "m1", role: "user", content: `hello ${MARKER}` }] }) as unknown as Record<string, unknown>;
  switch (Math.floor(random() * 8)) {
    case 0:
      delete input[pick(["threadId", "runId", "messages"])];
      return input;
    case 1:
      input[pick(["threadId", "runId", "messages", "tools", "context"])] = pick(wrongTypes.filter((value) => typeof value !== "string" || random() < 0.2));
      if (typeof input["threadId"] === "string" && typeof input["runId"] === "string" && Array.isArray(input["messages"]) && Array.isArray(input["tools"]) && Array.isArray(input["context"])) input["threadId"] = 42;
      return input;
    case 2:
      input["messages"] = [{ id: "m", role: pick(["root", "", 3, null, MARKER]), content: "x" }];
      return input;
    case 3:
      input["messages"] = [{ id: pick([1, null, [], {}]), role: "user", content: "x" }];
      return input;
    case 4:
      input["tools"] = [{ name: pick([3, null, {}]), description: MARKER, parameters: {} }];
      return input;
    case 5:
      input["context"] = [{ description: 5, value: [MARKER] }];
      return input;
    case 6:
      input["messages"] = Array.from({ length: 1 + Math.floor(random() * 300) }, () => ({ role: "nobody", content: MARKER }));
      return input;
    default:
      return pick([[], [input], "just a string", 12, true]);
  }
}

function fuzzCase(index: number, random: () => number): FuzzCase {
  const valid = JSON.stringify(runInput({ messages: [{ id: "m1", role: "user", content: "hi" }] }));
  const roll = random();
  if (roll < 0.4) {
    return { kind: "schema-invalid", body: Buffer.from(JSON.stringify(schemaInvalid(random))), headers: json, statuses: [400] };
  }
  if (roll < 0.55) {
    // Not JSON: truncated, trailing garbage, random bytes, empty.
    const cut = valid.slice(0, Math.floor(random() * valid.length));
    const variants = [cut, `${valid}}`, `${valid} trailing`, "{", "", "\u0000", `{"threadId": ${MARKER}}`, Buffer.from(Array.from({ length: 64 }, () => Math.floor(random() * 256))).toString("latin1")];
    const text = variants[Math.floor(random() * variants.length)]!;
    return { kind: "invalid-json", body: Buffer.from(text, "latin1"), headers: json, statuses: [400] };
  }
  if (roll < 0.7) {
    // Deep nesting, in a field the schema checks and in ones it passes through (state, forwardedProps).
    const depth = 600 + Math.floor(random() * 20_000);
    const where = Math.floor(random() * 4);
    const deep = random() < 0.5 ? nested(depth, "[", "]") : nested(depth, '{"a":', "}");
    const body = [
      `{"threadId":${deep},"runId":"r","messages":[]}`,
      valid.replace('"state":{}', `"state":${deep}`),
      valid.replace('"forwardedProps":{}', `"forwardedProps":{"x":${deep}}`),
      nested(depth, "[", "]"),
    ][where]!;
    return { kind: "deeply-nested", body: Buffer.from(body), headers: json, statuses: [400, 413] };
  }
  if (roll < 0.8) {
    // Invalid UTF-8 inside a string of an otherwise valid body, or in its structure.
    const invalid = [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0xf8, 0x88, 0x80, 0x80, 0x80]][Math.floor(random() * 5)]!;
    const at = valid.indexOf('"hi"') + 2;
    const body = random() < 0.7 ? Buffer.concat([Buffer.from(valid.slice(0, at)), Buffer.from(invalid), Buffer.from(valid.slice(at))]) : Buffer.concat([Buffer.from(invalid), Buffer.from(valid)]);
    return { kind: "bad-utf8", body, headers: json, statuses: [400] };
  }
  if (roll < 0.9) {
    // A media type or content coding the endpoint does not take.
    const headers = [
      { "content-type": "text/plain" },
      { "content-type": "application/x-www-form-urlencoded" },
      { "content-type": "multipart/form-data; boundary=x" },
      { "content-type": "application/jsonp" },
      { "content-type": "application/json; charset=latin1" },
      { "content-type": "application/json", "content-encoding": "compress-me" },
      { "content-type": "application/json", "content-encoding": "gzip" },
      {},
    ][index % 8]!;
    return { kind: "wrong-content-type", body: Buffer.from(valid), headers, statuses: [400, 415] };
  }
  if (roll < 0.97) {
    // Huge: over the byte limit, raw or as a small gzip that inflates past it.
    const filler = "x".repeat(MAX_BODY_BYTES + 1 + Math.floor(random() * MAX_BODY_BYTES));
    const body = Buffer.from(JSON.stringify(runInput({ messages: [{ id: "m", role: "user", content: filler }] })));
    return random() < 0.5
      ? { kind: "huge", body, headers: json, statuses: [413] }
      : { kind: "huge", body: gzipSync(body), headers: { ...json, "content-encoding": "gzip" }, statuses: [413] };
  }
  // Under the limit but invalid, with a big value: the reply stays small and echoes nothing.
  const body = JSON.stringify({ threadId: 1, runId: MARKER.repeat(1_000), messages: Array.from({ length: 2_000 }, () => ({ role: 9 })) });
  return { kind: "big-invalid", body: Buffer.from(body), headers: json, statuses: [400] };
}

function send(url: URL, agent: Agent, fuzz: FuzzCase): Promise<RawReply> {
  return postRaw(url, agent, fuzz.body, fuzz.headers);
}

describe("hostile request bodies", () => {
  it("10 000 fuzzed bodies: each a 4xx with a reason, none reaches the agent, the server stays up, the heap returns to its baseline", async () => {
    const stack = await startStack({ chat: { model: reliabilityModel } }, { maxBodyBytes: MAX_BODY_BYTES });
    const url = new URL(`${stack.url}/chat`);
    const agent = new Agent({ keepAlive: true, maxSockets: 50 });
    const random = seededRandom(20_260_101);
    const total = 10_000;
    const cases = Array.from({ length: total }, (_, index) => fuzzCase(index, random));
    const failures: string[] = [];
    const byKind = new Map<string, number>();

    const runAll = async (subset: FuzzCase[]): Promise<void> => {
      let next = 0;
      await Promise.all(
        Array.from({ length: 50 }, async () => {
          for (let index = next++; index < subset.length; index = next++) {
            const fuzz = subset[index]!;
            let reply: RawReply;
            try {
              reply = await send(url, agent, fuzz);
            } catch (error) {
              // A server may close a connection after refusing an oversized body it did not read.
              if (fuzz.kind === "huge") continue;
              failures.push(`${fuzz.kind} #${index}: ${String(error)}`);
              continue;
            }
            byKind.set(fuzz.kind, (byKind.get(fuzz.kind) ?? 0) + 1);
            let parsed: { error?: { code?: unknown; message?: unknown } } | undefined;
            try {
              parsed = JSON.parse(reply.body) as typeof parsed;
            } catch {
              parsed = undefined;
            }
            const problems = [
              fuzz.statuses.includes(reply.status) ? "" : `status ${reply.status}`,
              typeof parsed?.error?.code === "string" && typeof parsed.error.message === "string" && parsed.error.message.length > 0 ? "" : "no JSON reason",
              reply.body.includes(MARKER) ? "echoes the body" : "",
              reply.body.length > 8_192 ? `reply of ${reply.body.length} bytes` : "",
            ].filter((problem) => problem !== "");
            if (problems.length > 0 && failures.length < 20) failures.push(`${fuzz.kind} #${index}: ${problems.join(", ")}: ${reply.body.slice(0, 200)}`);
          }
        }),
      );
    };

    // Warm up (JIT, parser caches, sockets), then measure the rest against that baseline.
    await runAll(cases.slice(0, 500));
    const baseline = await settledHeapBytes();
    const started = performance.now();
    await runAll(cases.slice(500));
    const elapsedMs = performance.now() - started;
    agent.destroy();
    const after = await settledHeapBytes();

    console.info(`fuzz: ${total - 500} bodies in ${Math.round(elapsedMs)} ms; heap ${(baseline / 2 ** 20).toFixed(1)} → ${(after / 2 ** 20).toFixed(1)} MiB; ${JSON.stringify(Object.fromEntries(byKind))}`);
    expect(failures).toEqual([]);
    for (const kind of ["schema-invalid", "invalid-json", "deeply-nested", "bad-utf8", "wrong-content-type", "huge", "big-invalid"]) {
      expect(byKind.get(kind) ?? 0, kind).toBeGreaterThan(0);
    }
    // A stall guard (a catastrophic parse takes minutes), stretched by the machine's load.
    expect(elapsedMs).toBeLessThan(loadScaledMs(60_000));
    expect(after - baseline, `heap grew from ${baseline} to ${after}`).toBeLessThan(8 * 1024 * 1024);
    // Nothing reached the agent: it never opened a conversation, and never logged a run.
    expect(stack.agents.chat!.stats().sessions.liveSessions).toBe(0);
    expect(stack.logger.matching(/run started|run refused before it started/)).toHaveLength(0);

    // Still serving.
    expect((await fetch(`${stack.url}/healthz`)).status).toBe(200);
    const client = new ThreadClient(`${stack.url}/chat`);
    await client.say("still up");
    expect(client.lastAssistantText()).toBe("ok: still up");
  }, 480_000);

  it("names the reason for the cases that used to slip through: bad UTF-8, undecodable gzip, deep nesting", async () => {
    const stack = await startStack({ chat: { model: reliabilityModel } });
    const url = new URL(`${stack.url}/chat`);
    const agent = new Agent({ keepAlive: true });
    const valid = JSON.stringify(runInput({ messages: [{ id: "m1", role: "user", content: "hi" }] }));
    const at = valid.indexOf('"hi"') + 2;
    const badUtf8 = Buffer.concat([Buffer.from(valid.slice(0, at)), Buffer.from([0xff, 0xfe]), Buffer.from(valid.slice(at))]);
    const deepState = valid.replace('"state":{}', `"state":${nested(5_000, "[", "]")}`);
    const cases: Array<[FuzzCase, string, RegExp]> = [
      [{ kind: "bad-utf8", body: badUtf8, headers: json, statuses: [400] }, "INVALID_JSON", /UTF-8/],
      [{ kind: "gzip", body: Buffer.from("not gzip at all"), headers: { ...json, "content-encoding": "gzip" }, statuses: [400] }, "INVALID_JSON", /decompress/],
      [{ kind: "deep", body: Buffer.from(deepState), headers: json, statuses: [400] }, "INVALID_INPUT", /nested deeper/],
    ];
    for (const [fuzz, code, message] of cases) {
      const reply = await send(url, agent, fuzz);
      expect(reply.status, fuzz.kind).toBe(400);
      const parsed = JSON.parse(reply.body) as { error: { code: string; message: string } };
      expect(parsed.error.code, fuzz.kind).toBe(code);
      expect(parsed.error.message, fuzz.kind).toMatch(message);
    }
    // A UTF-16 body that declares its charset is still read as declared.
    const utf16 = await send(url, agent, { kind: "utf16", body: Buffer.from(valid.replace('"hi"', '"héllo"'), "utf16le"), headers: { "content-type": "application/json; charset=utf-16le" }, statuses: [200] });
    expect(utf16.status).toBe(200);
    expect(utf16.body).toContain("ok: héllo");
    agent.destroy();
  });
});
