// Starts bench/lib/stack-server.mjs in its own process and talks to it over IPC, so a benchmark
// measures the server from outside, as a client would.
import { fileURLToPath } from "node:url";
import { fork } from "node:child_process";
import { join } from "node:path";

const here = fileURLToPath(new URL(".", import.meta.url));

/** Starts a stack-server process and returns an IPC client for it. */
export async function startStack(name, root, { prewarm }) {
  const args = ["--root", root, ...(prewarm ? ["--prewarm"] : [])];
  const child = fork(join(here, "stack-server.mjs"), args, { stdio: ["ignore", "ignore", "inherit", "ipc"], execArgv: [] });
  const pending = new Map();
  let nextId = 0;
  const ready = new Promise((resolve, reject) => {
    child.on("message", (message) => {
      if (message.ready) return resolve(message);
      const waiter = pending.get(message.id);
      pending.delete(message.id);
      if (message.error === undefined) waiter?.resolve(message.value);
      else waiter?.reject(new Error(message.error));
    });
    child.once("exit", (code) => reject(new Error(`stack ${name} exited with ${code}`)));
  });
  const { adapterUrl, relayUrl } = await ready;
  const call = (op) =>
    new Promise((resolve, reject) => {
      const id = (nextId += 1);
      pending.set(id, { resolve, reject });
      child.send({ id, op });
    });
  return { name, adapterUrl, relayUrl, pid: child.pid, call, close: () => call("close") };
}
