import type { PooledConversation } from "../process/pooled-process.js";
import type { PooledLease } from "./pool-lease.js";
import type { PoolMember } from "./pool-member.js";

/**
 * The leases whose holders offered their conversation back, in the order the pool asks for them
 * when an acquire finds no room: conversations nobody waits on (not parked) first, offered longest
 * ago first; then, only while more than `maxParked` conversations of the pool are parked, the
 * parked ones the same way, so parked turns cannot keep every slot from new work.
 */
export function reclaimCandidates<TConfig, TConversation extends PooledConversation>(
  members: Iterable<PoolMember<TConfig, TConversation>>,
  options: { parkedInPool: number; maxParked: number },
): PooledLease<TConversation>[] {
  const idle: PooledLease<TConversation>[] = [];
  const parked: PooledLease<TConversation>[] = [];
  for (const member of members) {
    if (member.state === "stopping") continue;
    for (const lease of member.leases) {
      if (lease.reclaimOffer === undefined) continue;
      (lease.parked ? parked : idle).push(lease);
    }
  }
  const bySince = (left: PooledLease<TConversation>, right: PooledLease<TConversation>): number => (left.reclaimOffer?.since ?? 0) - (right.reclaimOffer?.since ?? 0);
  idle.sort(bySince);
  parked.sort(bySince);
  const overParked = Math.max(0, options.parkedInPool - options.maxParked);
  return [...idle, ...parked.slice(0, overParked)];
}
