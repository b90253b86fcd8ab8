// The client's waits on the harness, in one place: each was tuned against the emulator, so each can
// be set per conversation (ConversationConfig.timings; docs/protocol.md, "Assumptions and how we
// hedge them").

/**
 * How long the client waits on the harness around the end of a turn (docs/protocol.md, "Turn
 * end"). Every default was tuned against the emulator; `ConversationConfig.timings` sets them.
 */
export interface TurnTimings {
  /**
   * The main trajectory's idle ends a turn at once when nothing is owed. When something is (a step
   * still active or waiting, the post-turn hook), the idle may be an interim one (idle → step →
   * idle): the turn waits for the next idle, or at most this long, so a harness that never sends
   * another idle cannot hang it.
   */
  idleSettleMs: number;
  /**
   * An idle with no error before the turn's first step may be a late duplicate of the previous
   * turn's idle (the harness may send FULLY_IDLE more than once). It ends the turn only if nothing
   * else arrives for this long.
   */
  earlyIdleGraceMs: number;
  /** After a halt (cancel, abort, timeout), how long to wait for the harness to confirm idle before giving up on it. */
  haltDrainMs: number;
  /** After a fatal model error step, how long to wait for the harness to end the trajectory. */
  fatalDrainMs: number;
}

export const DEFAULT_TURN_TIMINGS: Readonly<TurnTimings> = Object.freeze({ idleSettleMs: 100, earlyIdleGraceMs: 1_000, haltDrainMs: 5_000, fatalDrainMs: 2_000 });

/** How often an idle WebSocket is pinged; a ping still unanswered at the next one closes it. */
export const DEFAULT_PING_INTERVAL_MS = 30_000;
/** How long the harness may take to answer the conversation init. */
export const DEFAULT_INIT_TIMEOUT_MS = 60_000;
