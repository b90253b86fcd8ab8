#!/usr/bin/env node
// The load generator of the concurrency benchmark, in its own process so that its work does not
// share the server's event loop. Argument: JSON `{ url, threads, rounds, text }`. Every round runs
// one turn on each thread at once (the same thread ids every round) and reports, per run, the time
// to the first event and to the last, and the number of events.
import { randomUUID } from "node:crypto";
import { report, runInputOf } from "./common.mjs";

const { url, threads, rounds, text } = JSON.parse(process.argv[2]);
const threadIds = Array.from({ length: threads }, () => randomUUID());
const histories = threadIds.map(() => []);

async function run(index) {
  const message = { id: randomUUID(), role: "user", content: `${text} ${index}` };
  const messages = [...histories[index], message];
  const body = JSON.stringify(runInputOf(threadIds[index], messages));
  const started = performance.now();
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream" }, body });
  let firstEvent;
  let events = 0;
  let last = "";
  let buffer = "";
  const decoder = new TextDecoder();
  for await (const chunk of response.body) {
    firstEvent ??= performance.now();
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      // A frame may open with an `id:` line before its data.
      const frame = buffer.slice(0, end);
      if (/^data:/m.test(frame)) {
        events += 1;
        last = frame;
      }
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
    }
  }
  histories[index] = messages;
  return { status: response.status, ttfeMs: (firstEvent ?? performance.now()) - started, totalMs: performance.now() - started, events, finished: last.includes("RUN_FINISHED") };
}

const results = [];
for (let round = 0; round < rounds; round += 1) {
  const started = performance.now();
  const runs = await Promise.all(threadIds.map((_, index) => run(index).catch((error) => ({ status: 0, error: String(error), ttfeMs: 0, totalMs: 0, events: 0, finished: false }))));
  results.push({ wallMs: performance.now() - started, runs });
}
report(results);
