import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { encodeFrame, encodeInputConfig } from "@ag-ui-antigravity/harness/protocol";
import { activeHandleCounts, expectClosesOnce, expectNoActiveHandles, portAccepts } from "@ag-ui-antigravity/testing";
import WebSocket from "ws";
import { afterEach, describe, expect, it } from "vitest";
import { silentLogger } from "../logging/logger.js";
import { runEmulatorProcess, type RunningEmulator } from "./run-emulator-process.js";

const directories: string[] = [];

afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** The emulator in this process, its stdin and stdout being streams the test holds. */
async function startInProcess(): Promise<{ emulator: RunningEmulator; stdin: PassThrough }> {
  const storageDirectory = mkdtempSync(join(tmpdir(), "emulator-close-"));
  directories.push(storageDirectory);
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  stdout.resume();
  stdin.write(encodeFrame(encodeInputConfig({ storageDirectory, bindAddress: "127.0.0.1" })));
  const emulator = await runEmulatorProcess({
    stdin,
    stdout,
    logger: silentLogger,
    env: { ANTIGRAVITY_EMULATOR_TOKEN_DELAY_MS: "0" },
    processControl: {
      exit: () => {
        throw new Error("the emulator must not exit the test process");
      },
      killSelf: () => {
        throw new Error("the emulator must not kill the test process");
      },
    },
  });
  return { emulator, stdin };
}

function openSocket(emulator: RunningEmulator): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${emulator.port}/`, { headers: { "x-goog-api-key": emulator.apiKey } });
    socket.once("open", () => resolve(socket));
    socket.once("error", reject);
  });
}

describe("RunningEmulator", () => {
  it("close() aborts signal at once, is idempotent, and leaves no socket, server, timer or stdin listener behind", async () => {
    const baseline = activeHandleCounts();
    const { emulator, stdin } = await startInProcess();
    const socket = await openSocket(emulator);
    const socketClosed = new Promise<void>((resolve) => socket.once("close", () => resolve()));

    await expectClosesOnce(emulator, () => emulator.close());

    await socketClosed;
    expect(await portAccepts(emulator.port)).toBe(false);
    expect(stdin.listenerCount("end") + stdin.listenerCount("close") + stdin.listenerCount("data")).toBe(0);
    expect(stdin.isPaused()).toBe(true);
    await expectNoActiveHandles({ baseline });
  });

  it("closes itself on EOF on stdin, the harness's shutdown signal", async () => {
    const { emulator, stdin } = await startInProcess();
    stdin.end();
    await emulator.closed;
    expect(emulator.signal.aborted).toBe(true);
    expect(await portAccepts(emulator.port)).toBe(false);
    await emulator.close();
  });
});
