import { renderTemplate } from "../scenario/template.js";
import type { ScenarioAction } from "../scenario/scenario-schema.js";
import type { ScriptedTurn, TrajectoryRun } from "./scripted-turn.js";
import { TurnAbandoned, TurnTermination } from "./turn-termination.js";

/** The failures and faults a scenario can script: error steps, failed turns, and broken processes, sockets and frames. */
export type FaultAction = Extract<
  ScenarioAction,
  { type: "error-emit" | "turn-fail" | "process-exit" | "process-kill" | "turn-stall" | "socket-close" | "json-malform" | "field-unknown" }
>;

/**
 * Plays one scripted failure. Those that end the turn throw: `TurnTermination` when the harness
 * would still report the trajectory's end, `TurnAbandoned` when the connection or the process is
 * already gone and nothing more can be sent.
 */
export async function playFault(turn: ScriptedTurn, run: TrajectoryRun, action: FaultAction): Promise<void> {
  const context = turn.context;
  switch (action.type) {
    case "error-emit": {
      const message = renderTemplate(action.message, turn.variables);
      turn.publishNewStep(run, { state: "STATE_ERROR", source: "SOURCE_SYSTEM", error: { errorMessage: message, httpCode: action.httpCode } });
      if (action.endTurn !== false) {
        throw new TurnTermination(action.trajectoryError ?? `executor run failed: ${message}`, { errorCode: action.errorCode ?? `HTTP_${action.httpCode}` });
      }
      return;
    }
    case "turn-fail":
      throw new TurnTermination(action.error, { errorCode: action.errorCode });
    case "process-exit":
      context.logger.error(`scenario fault: exiting with code ${action.code}`);
      context.processControl.exit(action.code);
      throw new TurnAbandoned("process exit requested");
    case "process-kill":
      context.logger.error("scenario fault: SIGKILL to self");
      context.processControl.killSelf();
      throw new TurnAbandoned("process kill requested");
    case "turn-stall":
      context.logger.warn(`conversation ${context.cascadeId}: scenario fault: stalling this turn forever`);
      await new Promise<never>(() => undefined);
      return;
    case "socket-close":
      context.closeSocket(action.code ?? 1011, action.reason ?? "emulator fault: socket closed by scenario");
      throw new TurnAbandoned("socket closed by scenario");
    case "json-malform":
      context.channel.sendRaw(action.text ?? '{"stepUpdate": {"trajectoryId": ');
      return;
    case "field-unknown":
      if (action.variant === "event") context.channel.send({ brandNewEvent: { k: "v" } });
      else if (action.variant === "enum") context.channel.send({ trajectoryStateUpdate: { trajectoryId: run.trajectoryId, state: "STATE_FROM_THE_FUTURE" } });
      else {
        const stepIndex = context.recorder.allocate(run.trajectoryId);
        context.channel.send({
          stepUpdate: { ...turn.baseStep(run, stepIndex), state: "STATE_DONE", source: "SOURCE_MODEL", futureField: { nested: true } },
        });
      }
      return;
  }
}
