import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { abortReason } from "@ag-ui-antigravity/foundation";
import { HarnessError } from "../errors/harness-error.js";
import { settleWithin } from "../internal/settle-within.js";
import { FrameReader } from "../protocol/frames.js";
import { decodeOutputConfig } from "../protocol/handshake.js";
import type { HarnessProcessExit } from "./harness-process-options.js";

/*
 * The stdio half of the handshake (docs/protocol.md, "The stdio handshake"): writing the framed
 * InputConfig and reading the framed OutputConfig, with the harness's stderr to explain a failure.
 */

/** After an exit, how long to wait for the last stderr bytes before reporting the tail. */
export const STDERR_SETTLE_MS = 250;

export function writeWithBackpressure(child: ChildProcessWithoutNullStreams, bytes: Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    child.stdin.once("error", onError);
    const flushed = child.stdin.write(bytes, (error) => {
      child.stdin.off("error", onError);
      if (error) reject(error);
      else if (flushed) resolve();
    });
    if (!flushed) child.stdin.once("drain", () => resolve());
  });
}

export function readOutputConfig(
  child: ChildProcessWithoutNullStreams,
  options: {
    timeoutMs: number;
    signal: AbortSignal | undefined;
    stderrTail: () => string[];
    stderrEnded: Promise<void>;
    exited: Promise<HarnessProcessExit>;
  },
): Promise<{ port: number; apiKey: string }> {
  return new Promise((resolve, reject) => {
    const reader = new FrameReader();
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.stdout.off("data", onData);
      options.signal?.removeEventListener("abort", onAbort);
      outcome();
    };
    const failAfterStderr = (message: string, cause?: unknown): void => {
      // The reason is almost always on stderr; give the last bytes a moment to arrive.
      void settleWithin(options.stderrEnded, STDERR_SETTLE_MS).then(() =>
        finish(() => {
          const tail = options.stderrTail();
          reject(
            new HarnessError("HANDSHAKE_FAILED", `${message}${tail.length > 0 ? `:\n${tail.join("\n")}` : ""}`, {
              stderrTail: tail,
              ...(cause === undefined ? {} : { cause }),
            }),
          );
        }),
      );
    };
    const onData = (chunk: Buffer): void => {
      try {
        const frames = reader.push(chunk);
        const first = frames[0];
        if (first !== undefined) {
          const config = decodeOutputConfig(first);
          finish(() => resolve(config));
        }
      } catch (error) {
        failAfterStderr("harness sent an invalid OutputConfig frame", error);
      }
    };
    const onAbort = (): void => finish(() => reject(abortReason(options.signal as AbortSignal)));
    const timer = setTimeout(() => failAfterStderr(`harness did not complete the handshake within ${options.timeoutMs} ms`), options.timeoutMs);
    timer.unref();
    child.stdout.on("data", onData);
    child.stdout.once("end", () => failAfterStderr("harness closed stdout before sending its OutputConfig"));
    void options.exited.then((exit) => failAfterStderr(`harness exited during the handshake (code ${String(exit.code)}, signal ${String(exit.signal)})`));
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
  });
}
