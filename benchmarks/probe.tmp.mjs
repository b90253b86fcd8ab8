import { AntigravityAgent } from "@ag-ui-antigravity/agent";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
const model = `emulator:${join(process.cwd(), "..", "fixtures/scenarios/reliability.json")}`;
const agent = new AntigravityAgent({ harness: "emulator", model, sessions: { maxSessions: 96, maxRememberedThreads: 200 }, pool: { healthCheckIntervalMs: 0, maxConversationsPerProcess: 32 } });
const run = (threadId) => new Promise((resolve, reject) => agent.run({ threadId, runId: "r", messages: [{ id: randomUUID(), role: "user", content: "hi" }], tools: [], context: [], state: {}, forwardedProps: {} }).subscribe({ complete: resolve, error: reject }));
const heap = async () => { for (let i = 0; i < 4; i++) { gc(); await new Promise((r) => setImmediate(r)); } return process.memoryUsage().heapUsed / 2 ** 20; };
let total = 0;
for (const n of [1000, 2000, 2000, 2000]) {
  let next = 0;
  await Promise.all(Array.from({ length: 64 }, async () => { for (let i = next++; i < n; i = next++) await run(randomUUID()); }));
  total += n;
  console.log(total, "threads heap MiB", (await heap()).toFixed(1));
}
const { writeHeapSnapshot } = await import("node:v8");
if (process.env.SNAP) console.log(writeHeapSnapshot("/tmp/agent-heap.heapsnapshot"));
await agent.close();
