/**
 * Thrown inside a turn to end it early with a trajectory error (an error step that gives up, or a
 * scripted failure). The turn runner turns it into FULLY_IDLE + `error`.
 */
export class TurnTermination extends Error {
  readonly trajectoryError: string;

  constructor(trajectoryError: string) {
    super(trajectoryError);
    this.name = "TurnTermination";
    this.trajectoryError = trajectoryError;
  }
}

/** Thrown when a fault already tore the connection down: the turn ends without sending anything. */
export class TurnAbandoned extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "TurnAbandoned";
  }
}
