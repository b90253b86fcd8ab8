// Emulator benchmark: step updates per second streamed to one client, and resident memory per idle
// conversation. Runs the BUILT binary (pnpm build first); finishes well under a minute.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";

const binPath = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "bin.js");
const scratch = mkdtempSync(join(tmpdir(), "emulator-bench-"));
// Every update repeats the cumulative text (as the harness does), so answers are kept answer-sized
// and the count comes from many turns.
const streamedCharacters = 4_000;
const chunkSize = 8;
const turns = 60;
const idleConversations = 500;

const scenarioPath = join(scratch, "bench.json");
writeFileSync(
  scenarioPath,
  JSON.stringify({ name: "bench", rules: [{ when: {}, actions: [{ type: "text-emit", text: "x".repeat(streamedCharacters), chunkSize, delayMs: 0 }] }] }),
);

function frame(payload) {
  const header = Buffer.alloc(4);
  header.writeUInt32LE(payload.length, 0);
  return Buffer.concat([header, payload]);
}

function inputConfig(storageDirectory) {
  const path = Buffer.from(storageDirectory);
  return frame(Buffer.concat([Buffer.from([0x0a, path.length]), path]));
}

function decodeOutputConfig(payload) {
  let offset = 0;
  const varint = () => {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = payload[offset++];
      result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7;
    }
  };
  const config = {};
  while (offset < payload.length) {
    const tag = varint();
    if (tag === 0x08) config.port = varint();
    else if (tag === 0x12) {
      const length = varint();
      config.apiKey = payload.subarray(offset, offset + length).toString();
      offset += length;
    } else throw new Error(`unexpected tag ${tag}`);
  }
  return config;
}

async function startEmulator() {
  const child = spawn(process.execPath, [binPath], { stdio: ["pipe", "pipe", "ignore"], env: { PATH: process.env.PATH, ANTIGRAVITY_EMULATOR_REBROADCAST_MS: "0" } });
  child.stdin.write(inputConfig(mkdtempSync(join(scratch, "storage-"))));
  const chunks = [];
  const config = await new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      chunks.push(chunk);
      const all = Buffer.concat(chunks);
      if (all.length >= 4 && all.length >= 4 + all.readUInt32LE(0)) resolve(decodeOutputConfig(all.subarray(4, 4 + all.readUInt32LE(0))));
    });
    child.once("exit", () => reject(new Error("emulator exited early")));
  });
  return { child, ...config };
}

function connect(emulator) {
  const socket = new WebSocket(`ws://localhost:${emulator.port}/`, { headers: { "x-goog-api-key": emulator.apiKey } });
  return new Promise((resolve, reject) => {
    socket.once("open", () => resolve(socket));
    socket.once("error", reject);
  });
}

function nextMessage(socket) {
  return new Promise((resolve) => socket.once("message", (data) => resolve(JSON.parse(data.toString()))));
}

function residentKilobytes(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)[1]);
}

async function stop(emulator, sockets) {
  for (const socket of sockets) socket.terminate();
  emulator.child.stdin.end();
  await new Promise((resolve) => emulator.child.once("exit", resolve));
}

async function streamingThroughput() {
  const emulator = await startEmulator();
  const socket = await connect(emulator);
  socket.send(JSON.stringify({ config: { models: [{ name: `emulator:${scenarioPath}`, types: ["MODEL_TYPE_TEXT"] }] } }));
  await nextMessage(socket);
  let stepUpdates = 0;
  let onIdle = () => undefined;
  socket.on("message", (data) => {
    const message = JSON.parse(data.toString());
    if (message.stepUpdate) stepUpdates += 1;
    if (message.trajectoryStateUpdate?.state === "STATE_FULLY_IDLE") onIdle();
  });
  const started = performance.now();
  for (let turn = 0; turn < turns; turn++) {
    await new Promise((resolve) => {
      onIdle = resolve;
      // The emulator plays the newest harness release by default: turn input is userInput{parts} there.
      socket.send(JSON.stringify({ userInput: { parts: [{ text: "go" }] } }));
    });
  }
  const seconds = (performance.now() - started) / 1000;
  await stop(emulator, [socket]);
  return { stepUpdates, seconds, perSecond: Math.round(stepUpdates / seconds) };
}

async function idleMemory() {
  const emulator = await startEmulator();
  const warmup = await connect(emulator);
  warmup.send(JSON.stringify({ config: { models: [{ name: "emulator:demo", types: ["MODEL_TYPE_TEXT"] }] } }));
  await nextMessage(warmup);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const before = residentKilobytes(emulator.child.pid);
  const sockets = [warmup];
  for (let index = 0; index < idleConversations; index++) {
    const socket = await connect(emulator);
    socket.send(JSON.stringify({ config: { models: [{ name: "emulator:demo", types: ["MODEL_TYPE_TEXT"] }], tools: [{ name: "get_weather", parametersJsonSchema: "{}" }] } }));
    await nextMessage(socket);
    sockets.push(socket);
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = residentKilobytes(emulator.child.pid);
  await stop(emulator, sockets);
  return { conversations: idleConversations, rssBeforeKiB: before, rssAfterKiB: after, perConversationKiB: Math.round(((after - before) / idleConversations) * 10) / 10 };
}

const throughput = await streamingThroughput();
console.log(`step updates to one client: ${throughput.stepUpdates} in ${throughput.seconds.toFixed(2)} s = ${throughput.perSecond} updates/s`);
const memory = await idleMemory();
console.log(
  `idle conversations: ${memory.conversations}; RSS ${memory.rssBeforeKiB} KiB -> ${memory.rssAfterKiB} KiB = ${memory.perConversationKiB} KiB per idle conversation`,
);
