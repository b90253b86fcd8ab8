// One emulator process with one conversation open on it, for the benchmarks' floors (the bare relay,
// the lean adapter and the WebSocket sink): spawned, handshaken and configured with the bench
// scenario's model.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FrameReader, decodeOutputConfig, encodeFrame, encodeInputConfig } from "@ag-ui-antigravity/harness/protocol";
import WebSocket from "ws";
import { emulatorBinPath, emulatorEnv } from "./common.mjs";

/** Spawns an emulator and opens one conversation on it: its WebSocket, and what closes both. */
export async function openEmulatorConversation({ model }) {
  const storageDirectory = mkdtempSync(join(tmpdir(), "bench-floor-"));
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
    void exited.then(() => reject(new Error("a benchmark's emulator exited during its handshake")));
  });
  const socket = new WebSocket(`ws://127.0.0.1:${port}/`, { headers: { "x-goog-api-key": apiKey }, maxPayload: 0 });
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  socket.send(JSON.stringify({ config: { models: [{ name: model, types: ["MODEL_TYPE_TEXT"] }] } }));
  await new Promise((resolve) => socket.once("message", resolve));
  return {
    socket,
    pid: child.pid,
    close: async () => {
      socket.terminate();
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
      await exited;
      clearTimeout(timer);
      rmSync(storageDirectory, { recursive: true, force: true });
    },
  };
}
