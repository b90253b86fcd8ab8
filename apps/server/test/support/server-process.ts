import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The built server, run as users run it: `node dist/main.js`. */
export const mainPath = fileURLToPath(new URL("../../dist/main.js", import.meta.url));

/** Resolves with the first match of `pattern` in the server's stdout, or rejects with what it printed. */
export function waitForOutput(server: ChildProcessWithoutNullStreams, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => {
      server.stdout.off("data", onData);
      reject(new Error(`no ${pattern} within ${timeoutMs} ms; output so far:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString("utf8");
      const match = pattern.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      server.stdout.off("data", onData);
      resolve(match);
    };
    server.stdout.on("data", onData);
  });
}
