import { createHash } from "node:crypto";

/**
 * What is fixed when a harness process starts, and so decides which processes a conversation may
 * share: the storage directory and the environment. Everything else (model, tools, instructions,
 * workspaces) is sent per conversation and does not split processes.
 */
export interface Partition {
  /** The harness save directory. Omitted: the client's default. */
  readonly storageDirectory?: string;
  /** Extra environment of the harness process. Order does not matter. */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Keeps conversations of different groups on different processes even when the storage
   * directory and env match; the process itself never sees it. Use it to keep agents whose
   * conversations park for a human (HITL) apart from chat-only ones, so parked conversations do
   * not pin processes that chat traffic would otherwise let go.
   */
  readonly group?: string;
}

/**
 * A stable id for a partition: two partitions get the same key exactly when they would start
 * identical processes, whatever the order of their env entries. It is a digest because env values
 * may be secrets (API keys) and the key shows up in metrics, logs and errors.
 */
export function partitionKeyOf(partition: Partition): string {
  const env = Object.entries(partition.env ?? {}).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
  const canonical = JSON.stringify([partition.storageDirectory ?? null, env, partition.group ?? null]);
  return `partition-${createHash("sha256").update(canonical).digest("hex").slice(0, 16)}`;
}

/** The env variable names of a partition, sorted; their values stay out of metrics and logs. */
export function envNamesOf(partition: Partition): string[] {
  return Object.keys(partition.env ?? {}).sort();
}
