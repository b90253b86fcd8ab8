// A raw SSE client for the adapter, like the relay's: a `fetch` reader that parses only the text
// deltas, so a latency it measures is the server's and not a client library's work and allocations.
import { randomUUID } from "node:crypto";
import { runInputOf } from "./common.mjs";

/**
 * Posts one turn of `thread` and notes, per text delta, when it arrived (on `clock`) and the text
 * length it completes. `clock` is `performance.now` by default; a client of a server in another
 * process passes `machineMs` (bench/lib/common.mjs) so both sides' times can be subtracted.
 */
export async function rawAdapterTurn(url, thread, text, clock = () => performance.now()) {
  thread.messages.push({ id: randomUUID(), role: "user", content: text });
  const body = JSON.stringify(runInputOf(thread.id, thread.messages));
  const deltas = [];
  let cumulative = 0;
  let lastDelta = 0;
  let buffer = "";
  const decoder = new TextDecoder();
  const started = clock();
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream" }, body });
  for await (const chunk of response.body) {
    const at = clock();
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const data = buffer.slice(buffer.indexOf("data: ") + 6, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
      if (!data.includes('"TEXT_MESSAGE_CONTENT"')) continue;
      cumulative += JSON.parse(data).delta.length;
      deltas.push({ at, cumulative });
      lastDelta = at;
    }
  }
  if (response.status !== 200) throw new Error(`adapter turn failed: HTTP ${response.status}`);
  return { started, ended: clock(), lastDelta, deltas };
}
