import type { TrajectoryEnding } from "./scripted-turn.js";

/**
 * Thrown inside a turn to end it early with a trajectory error (an error step that gives up, or a
 * scripted failure). The turn runner turns it into FULLY_IDLE + `error`.
 */
export class TurnTermination extends Error {
  readonly trajectoryError: string;
  /** What the trajectory's final state says: the error, and for an early stop its reason (0.1.11) and code (0.1.20). */
  readonly ending: TrajectoryEnding;

  constructor(trajectoryError: string, options: { stopReason?: string | undefined; errorCode?: string | undefined } = {}) {
    super(trajectoryError === "" ? (options.stopReason ?? "stopped") : trajectoryError);
    this.name = "TurnTermination";
    this.trajectoryError = trajectoryError;
    this.ending = { ...(trajectoryError === "" ? {} : { error: trajectoryError }), ...options };
  }
}

/** Thrown when a fault already tore the connection down: the turn ends without sending anything. */
export class TurnAbandoned extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "TurnAbandoned";
  }
}
