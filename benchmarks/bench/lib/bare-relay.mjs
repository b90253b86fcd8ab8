// The floor of the overhead benchmark: an emulator's WebSocket frames written straight to an SSE
// response, with no parsing, translation, session or pool. Its only logic is the end of the turn.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FrameReader, decodeOutputConfig, encodeFrame, encodeInputConfig } from "@ag-ui-antigravity/harness/protocol";
import WebSocket from "ws";
import { emulatorBinPath, emulatorEnv } from "./common.mjs";

/** Spawns an emulator, opens one conversation on it and serves `POST /` as a relay of its turns. */
export async function startBareRelay({ model }) {
  const storageDirectory = mkdtempSync(join(tmpdir(), "bench-relay-"));
  const child = spawn(process.execPath, [emulatorBinPath], {
    stdio: ["pipe", "pipe", "ignore"],
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...emulatorEnv },
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.stdin.write(encodeFrame(encodeInputConfig({ storageDirectory })));
  const { port, apiKey } = await new Promise((resolve, reject) => {
    const reader = new FrameReader();
    child.stdout.on("data", (chunk) => {
      const [payload] = reader.push(chunk);
      if (payload !== undefined) resolve(decodeOutputConfig(payload));
    });
    void exited.then(() => reject(new Error("the relay's emulator exited during its handshake")));
  });
  const socket = new WebSocket(`ws://127.0.0.1:${port}/`, { headers: { "x-goog-api-key": apiKey }, maxPayload: 0 });
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  socket.send(JSON.stringify({ config: { models: [{ name: model, types: ["MODEL_TYPE_TEXT"] }] } }));
  await new Promise((resolve) => socket.once("message", resolve));

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
      socket.send(JSON.stringify({ userInput: userTextOf(JSON.parse(Buffer.concat(chunks).toString())) }));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    pid: child.pid,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      socket.terminate();
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
      await exited;
      clearTimeout(timer);
      rmSync(storageDirectory, { recursive: true, force: true });
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
      events.push({ at, data: buffer.slice(6, end) });
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
