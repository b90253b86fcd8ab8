#!/usr/bin/env node
// Benchmark 7, a hostile tool schema against a live server: a client posts a ~1 MiB tool schema
// (thousands of properties, each with its own pattern; the kind of schema that froze the event loop
// for 49 s while a code-generating validator compiled it) over and over, while another client probes
// `/healthz` every 2 ms. The server runs in its own process (bench/lib/stack-server.mjs), so the
// probes measure what a neighbour of the hostile client waits, and the server reports the longest
// its event loop was held. Targets: each hostile request refused with a 400 within 1 s; `/healthz`
// p99 under 100 ms meanwhile.
import { randomUUID } from "node:crypto";
import { Agent, request } from "node:http";
import { limitRuntime, median, percentile, report, repoRoot, sleep } from "./lib/common.mjs";
import { startStack } from "./lib/stack-process.mjs";
import { hostileSchema } from "../../fixtures/inputs/hostile-schema.mjs";

limitRuntime(240_000, "hostile-schema");
const rounds = Number(process.env.BENCH_HOSTILE_ROUNDS ?? 20);

/** One HTTP exchange on a keep-alive agent; resolves with the status, the body and the elapsed ms. */
function exchange(url, agent, { method = "GET", body } = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const headers = body === undefined ? {} : { "content-type": "application/json", "content-length": body.length };
    const outgoing = request(url, { method, agent, headers }, (response) => {
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode, body: Buffer.concat(chunks).toString("utf8"), ms: performance.now() - started }));
      response.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

const stack = await startStack("current", repoRoot, { prewarm: false });
const healthUrl = new URL("/healthz", stack.adapterUrl);
// The body is encoded once, up front: this process's own stringify must not delay its probes.
// 1 000 characters short of the binding's default 1 MiB body limit, so the schema is what gets refused.
let schemaBytes = 1024 * 1024;
let body;
do {
  const tool = { name: "hostile", description: "", parameters: hostileSchema(schemaBytes) };
  body = Buffer.from(JSON.stringify({ threadId: randomUUID(), runId: randomUUID(), messages: [{ id: randomUUID(), role: "user", content: "hi" }], tools: [tool], context: [], state: {}, forwardedProps: {} }));
  schemaBytes -= 16 * 1024;
} while (body.length > 1024 * 1024 - 1_000);

const probeAgent = new Agent({ keepAlive: true, maxSockets: 1 });
const hostileAgent = new Agent({ keepAlive: true, maxSockets: 1 });
const probe = async () => (await exchange(healthUrl, probeAgent)).ms;

// Alone: the same probes with nothing else going on, to read the figures against the machine's noise.
for (let index = 0; index < 50; index += 1) await probe();
const alone = [];
for (let index = 0; index < 500; index += 1) {
  alone.push(await probe());
  await sleep(2);
}

// Warm the hostile path (JIT) before measuring it.
for (let index = 0; index < 3; index += 1) await exchange(stack.adapterUrl, hostileAgent, { method: "POST", body });

const during = [];
let probing = true;
const prober = (async () => {
  while (probing) {
    during.push(await probe());
    await sleep(2);
  }
})();
await stack.call("loop-start");
const refusals = [];
const problems = [];
for (let round = 0; round < rounds; round += 1) {
  const reply = await exchange(stack.adapterUrl, hostileAgent, { method: "POST", body });
  refusals.push(reply.ms);
  const code = reply.status === 400 ? JSON.parse(reply.body).error?.code : undefined;
  if (code !== "INVALID_TOOL_SCHEMA") problems.push(`HTTP ${reply.status} ${reply.body.slice(0, 200)}`);
}
const loop = await stack.call("loop-stop");
probing = false;
await prober;
probeAgent.destroy();
hostileAgent.destroy();
await stack.close();
if (problems.length > 0) throw new Error(`hostile requests not refused as INVALID_TOOL_SCHEMA: ${problems[0]}`);

report({
  bodyBytes: body.length,
  rounds,
  refusalMs: { p50: median(refusals), p99: percentile(refusals, 0.99), max: Math.max(...refusals) },
  healthDuringMs: { p50: median(during), p99: percentile(during, 0.99), max: Math.max(...during), probes: during.length },
  healthAloneMs: { p50: median(alone), p99: percentile(alone, 0.99), probes: alone.length },
  serverLoopHeldMs: loop,
});
