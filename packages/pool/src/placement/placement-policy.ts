/**
 * How a new conversation picks among the processes of its partition that have room.
 * - `fill-first`: the process already pinned by the most parked conversations, then the fullest.
 *   Empty processes appear sooner and idle grace can stop them, so fewer processes stay up.
 * - `spread`: the process with the fewest active (not parked) conversations, then the emptiest.
 *   Turns share fewer event loops, at the cost of keeping more processes alive.
 */
export type PlacementStrategy = "fill-first" | "spread";

/** What placement sees of one process. */
export interface PlacementCandidate {
  readonly id: number;
  /** Started and able to open a conversation now, rather than still spawning. */
  readonly ready: boolean;
  /** Conversations open, being opened, or being closed on it. */
  readonly occupied: number;
  /** How many of those are parked (waiting on a human or a slow tool), so pin the process without using it. */
  readonly parked: number;
}

/**
 * The candidate a new conversation goes to, or undefined when every one is full. A ready process
 * always beats one still spawning, so nobody waits for a spawn while a started process has room.
 */
export function choosePlacement<TCandidate extends PlacementCandidate>(
  candidates: Iterable<TCandidate>,
  options: { strategy: PlacementStrategy; capacity: number },
): TCandidate | undefined {
  let best: TCandidate | undefined;
  for (const candidate of candidates) {
    if (candidate.occupied >= options.capacity) continue;
    if (best === undefined || isBetter(candidate, best, options.strategy)) best = candidate;
  }
  return best;
}

function isBetter(candidate: PlacementCandidate, incumbent: PlacementCandidate, strategy: PlacementStrategy): boolean {
  if (candidate.ready !== incumbent.ready) return candidate.ready;
  const order =
    strategy === "fill-first"
      ? compareDescending(candidate.parked, incumbent.parked) || compareDescending(candidate.occupied, incumbent.occupied)
      : compareAscending(candidate.occupied - candidate.parked, incumbent.occupied - incumbent.parked) ||
        compareAscending(candidate.occupied, incumbent.occupied);
  // Ties go to the older process, which keeps placement deterministic.
  return order === 0 ? candidate.id < incumbent.id : order < 0;
}

function compareDescending(left: number, right: number): number {
  return right - left;
}

function compareAscending(left: number, right: number): number {
  return left - right;
}
