// Builds the `PoolMetrics` view out of the pool's books: what each process and partition holds
// now, plus the tally's counters. Read-only over state others own, and apart from the pool so the
// shape of the `/metrics` answer is in one place and not mixed into the pool's control flow.
import type { PartitionMetrics, PoolMetrics, ProcessMetrics } from "../metrics/pool-metrics.js";
import { envNamesOf } from "../partition/partition.js";
import type { PooledConversation } from "../process/pooled-process.js";
import type { PoolMember, PartitionRecord } from "./pool-member.js";
import type { PoolTally } from "./pool-tally.js";

/** What a metrics snapshot is taken from. */
export interface MetricsSources<TConfig, TConversation extends PooledConversation> {
  /** Every process the pool still owns, stopping ones included. */
  readonly members: Iterable<PoolMember<TConfig, TConversation>>;
  /** Every partition named since the pool was created. */
  readonly partitions: Iterable<PartitionRecord<TConfig, TConversation>>;
  readonly closed: boolean;
  readonly waitingAcquires: number;
  readonly tally: PoolTally;
}

/** A point-in-time view of the pool at `now`. */
export function snapshotMetrics<TConfig, TConversation extends PooledConversation>(
  sources: MetricsSources<TConfig, TConversation>,
  now: number,
): PoolMetrics {
  const members = [...sources.members];
  const processDetails: ProcessMetrics[] = members.map((member) => ({
    id: member.id,
    pid: member.process?.pid,
    partitionKey: member.partition.key,
    state: member.state,
    conversations: member.leases.size,
    parkedConversations: member.parked,
    reservations: member.reservations,
    ageMs: now - member.requestedAt,
    idleForMs: member.idleSince === undefined ? undefined : now - member.idleSince,
  }));
  const partitions: PartitionMetrics[] = [...sources.partitions].map((record) => {
    const ofPartition = members.filter((member) => member.partition === record);
    return {
      key: record.key,
      storageDirectory: record.partition.storageDirectory,
      envNames: envNamesOf(record.partition),
      group: record.partition.group,
      processes: ofPartition.length,
      conversations: ofPartition.reduce((sum, member) => sum + member.leases.size, 0),
      spawns: record.spawns,
      crashes: record.crashes,
      consecutiveFailures: record.backoff.consecutiveFailures,
      backoffRemainingMs: record.backoff.remainingMs(now),
    };
  });
  return {
    closed: sources.closed,
    processes: members.length,
    conversations: processDetails.reduce((sum, process) => sum + process.conversations, 0),
    waitingAcquires: sources.waitingAcquires,
    partitions,
    processDetails,
    totals: sources.tally.totals(),
    spawnLatencyMs: sources.tally.spawnLatency(),
  };
}
