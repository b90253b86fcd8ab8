// The floor of the overhead benchmark: an emulator's WebSocket frames written straight to an SSE
// response, with no parsing, translation, session or pool. Its only logic is the end of the turn.
import { createServer } from "node:http";
import { openEmulatorConversation } from "./emulator-conversation.mjs";

/** Spawns an emulator, opens one conversation on it and serves `POST /` as a relay of its turns. */
export async function startBareRelay({ model }) {
  const conversation = await openEmulatorConversation({ model });
  const { socket } = conversation;
  let current;
  socket.on("message", (data) => {
    if (current === undefined) return;
    const text = data.toString();
    current.write(`data: ${text}\n\n`);
    if (text.includes('"STATE_FULLY_IDLE"')) {
      current.end();
      current = undefined;
    }
  });
  const server = createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      response.flushHeaders();
      current = response;
      socket.send(JSON.stringify({ userInput: { parts: [{ text: userTextOf(JSON.parse(Buffer.concat(chunks).toString())) }] } }));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    pid: conversation.pid,
    server,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await conversation.close();
    },
  };
}

/**
 * The text to send: a `{ text }` body's, or a RunAgentInput's last message's (a relay sent the same
 * request as the adapter reads the same body, history and all, as any AG-UI server must).
 */
function userTextOf(body) {
  return typeof body.text === "string" ? body.text : body.messages.at(-1).content;
}

/**
 * A bare SSE client: the arrival time (on `clock`, `performance.now` by default) and raw payload of
 * each `data:` line, parsed after the run.
 */
export async function readRelayTurn(url, request, clock = () => performance.now()) {
  const body = typeof request === "string" ? JSON.stringify({ text: request }) : JSON.stringify(request);
  const started = clock();
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
  const decoder = new TextDecoder();
  const events = [];
  let buffer = "";
  for await (const chunk of response.body) {
    const at = clock();
    buffer += decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      // An event's `data:` line may follow an `id:` line (the lean adapter's events).
      events.push({ at, data: buffer.slice(buffer.indexOf("data: ") + 6, end) });
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
    }
  }
  return { started, ended: clock(), events };
}

/** A relay turn read by `readRelayTurn`, with its text deltas: arrival time and the cumulative text length each carries. */
export async function readRelayDeltas(url, text, clock = () => performance.now()) {
  const turn = await readRelayTurn(url, text, clock);
  const deltas = [];
  let lastDelta = turn.started;
  for (const event of turn.events) {
    if (!event.data.includes('"textDelta"')) continue;
    deltas.push({ at: event.at, cumulative: JSON.parse(event.data).stepUpdate.text.length });
    lastDelta = event.at;
  }
  return { started: turn.started, ended: turn.ended, lastDelta, deltas };
}
