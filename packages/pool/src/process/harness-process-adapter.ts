import {
  HarnessProcess,
  type Conversation,
  type ConversationConfig,
  type HarnessProcessOptions,
} from "@ag-ui-antigravity/harness";
import type { Partition } from "../partition/partition.js";
import type { PooledProcess } from "./pooled-process.js";

/**
 * Options of `HarnessProcess.start` the pool passes to every process it starts. The storage
 * directory and env come from the partition, and the pool owns the signal.
 */
export type HarnessStartOptions = Omit<HarnessProcessOptions, "storageDirectory" | "env" | "signal">;

/** Starts a real harness process for a partition (its storage directory and env) and presents it to the pool. */
export async function startHarnessProcess(
  partition: Partition,
  options: HarnessStartOptions & { signal: AbortSignal },
): Promise<PooledProcess<ConversationConfig, Conversation>> {
  const harness = await HarnessProcess.start({
    ...options,
    ...(partition.storageDirectory === undefined ? {} : { storageDirectory: partition.storageDirectory }),
    ...(partition.env === undefined ? {} : { env: { ...partition.env } }),
  });
  return {
    pid: harness.pid,
    signal: harness.signal,
    get hasExited() {
      return harness.hasExited;
    },
    openConversation: (config, openOptions) => harness.openConversation(config, openOptions),
    close: (closeOptions) => harness.close(closeOptions),
    // The WebSocket upgrade with the token is the one thing the harness's port promises; a plain
    // HTTP answer is not (docs/protocol.md, "Assumptions and how we hedge them").
    checkHealth: (probeOptions) => harness.checkLiveness(probeOptions),
    stderrTail: () => harness.stderrTail(),
  };
}
