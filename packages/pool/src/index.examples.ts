// Type-checked copies of the README's examples, so they cannot rot. Not part of the build.
import { HarnessPool, PoolError } from "./index.js";

/** One pool for the whole server; conversations on shared processes. */
export async function basicExample(): Promise<void> {
  const pool = new HarnessPool({ maxConversationsPerProcess: 8, minIdleProcesses: 1 });
  const lease = await pool.acquire({
    config: { model: "gemini-3.6-flash" },
    partition: { storageDirectory: "/var/lib/my-agent" },
  });
  try {
    const turn = lease.conversation.send("What is in this directory?");
    for await (const step of turn) if (step.kind === "text") process.stdout.write(step.textDelta);
  } finally {
    await lease.release();
  }
  await pool.close({ deadlineMs: 10_000 });
}

/** Pre-warm a partition before traffic arrives, and serve metrics. */
export async function warmAndMetricsExample(pool: HarnessPool): Promise<string> {
  await pool.warm({ partition: { storageDirectory: "/var/lib/my-agent" }, minIdleProcesses: 2 });
  const metrics = pool.metrics();
  return JSON.stringify({ processes: metrics.processes, p95SpawnMs: metrics.spawnLatencyMs.p95 });
}

/** React to the pool's typed errors. */
export async function errorHandlingExample(pool: HarnessPool, signal: AbortSignal): Promise<string> {
  try {
    const lease = await pool.acquire({ config: { model: "gemini-3.6-flash" }, signal });
    lease.signal.addEventListener("abort", () => {
      if (PoolError.isInstance(lease.signal.reason) && lease.signal.reason.code === "PROCESS_DIED") {
        // The harness process died under this conversation; a new acquire gets a fresh process.
      }
    });
    return lease.conversation.id;
  } catch (error) {
    if (PoolError.isInstance(error) && error.code === "SPAWN_BACKOFF") return `retry in ${error.retryAfterMs} ms`;
    throw error;
  }
}
