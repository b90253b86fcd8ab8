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
}

/**
 * A stable id for a partition: two partitions get the same key exactly when they would start
 * identical processes, whatever the order of their env entries. It is a digest because env values
 * may be secrets (API keys) and the key shows up in metrics, logs and errors.
 */
export function partitionKeyOf(partition: Partition): string {
  const env = Object.entries(partition.env ?? {}).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
  const canonical = JSON.stringify([partition.storageDirectory ?? null, env]);
  return `partition-${createHash("sha256").update(canonical).digest("hex").slice(0, 16)}`;
}

/** The env variable names of a partition, sorted; their values stay out of metrics and logs. */
export function envNamesOf(partition: Partition): string[] {
  return Object.keys(partition.env ?? {}).sort();
}
