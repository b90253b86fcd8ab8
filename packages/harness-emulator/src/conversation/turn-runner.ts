import { McpLoadFailure } from "../mcp/mcp-toolbelt.js";
import { renderTemplate } from "../scenario/template.js";
import { matchRule } from "../scenario/rule-matcher.js";
import type { ScenarioAction } from "../scenario/scenario-schema.js";
import { abortableSleep } from "./abortable-sleep.js";
import { playFault } from "./faults.js";
import { callHook } from "./hook-caller.js";
import { closeOpenStep, compactIfNeeded, echoInput, emitCompaction, finish, streamText, streamThinking } from "./model-steps.js";
import { exhaustQuota, lookUpSkills, manageTask, runWorkflow, scheduleTurn } from "./harness-tools.js";
import { askQuestions } from "./questions.js";
import { askToStop } from "./stop-hook.js";
import { ScriptedTurn, trajectoryRun, type TrajectoryRun, type TurnInput } from "./scripted-turn.js";
import { runSubagents, subagentRunAt } from "./subagents.js";
import { callMcp, callTool } from "./tool-calls.js";
import type { TurnContext } from "./turn-context.js";
import { TurnAbandoned, TurnTermination } from "./turn-termination.js";

export type { TurnInput } from "./scripted-turn.js";

/** A turn hook's arguments; from 0.1.14 they name the main trajectory. */
function turnHookArgs(turn: ScriptedTurn, args: Record<string, unknown>): Record<string, unknown> {
  return turn.context.profile.has("turnHookTrajectory") ? { ...args, trajectoryId: turn.context.cascadeId } : args;
}

/**
 * Drives one turn of the scripted model, from the pre-turn hook to the terminal trajectory state:
 * it matches the scenario's rule and plays its actions, each kind in a file of its own (model
 * output, tool calls, questions, subagents, faults).
 */
export class TurnRunner {
  readonly #turn: ScriptedTurn;

  constructor(context: TurnContext, input: TurnInput, options: { signal: AbortSignal }) {
    this.#turn = new ScriptedTurn(context, input, options.signal);
  }

  async run(): Promise<void> {
    const turn = this.#turn;
    const { context, signal } = turn;
    const main = trajectoryRun(context.cascadeId, { isMain: true });
    try {
      const preTurn = await callHook(context, {
        type: "LIFECYCLE_HOOK_PRE_TURN",
        argsKey: "preTurnArgs",
        args: turnHookArgs(turn, { userInput: { parts: turn.input.parts } }),
        signal,
      });
      const preTurnDenied = preTurn?.preTurnResult?.decision === "DENY" || preTurn?.preTurnResult?.decision === 2;
      if (preTurnDenied) {
        context.channel.send({
          trajectoryStateUpdate: { trajectoryId: context.cascadeId, state: "STATE_CANCELLED", error: preTurn?.preTurnResult?.reason ?? "" },
        });
        return;
      }
      turn.sendRunState(main, "STATE_RUNNING");
      echoInput(turn);
      await this.#loadMcpServers();
      await compactIfNeeded(turn, main);
      await this.#playRules(main, turn.request, { continuation: false });
      await closeOpenStep(turn, main);
      for (let continuation = 0; ; continuation += 1) {
        const reason = await askToStop(turn, main, { continuationCount: continuation });
        if (reason === undefined) break;
        turn.variables["continueReason"] = reason;
        await this.#playRules(main, reason, { continuation: true });
        await closeOpenStep(turn, main);
      }
      if (context.config.finishSchema !== undefined && !main.finished) finish(turn, main, undefined);
      if (context.knobs.idleDelayMs > 0) await abortableSleep(context.knobs.idleDelayMs, { signal });
      turn.sendRunState(main, "STATE_FULLY_IDLE");
      await callHook(context, { type: "LIFECYCLE_HOOK_POST_TURN", argsKey: "postTurnArgs", args: turnHookArgs(turn, { responseText: main.lastText }), signal });
    } catch (error) {
      if (signal.aborted) {
        // What the real harness prints when a halt cancels the in-flight model request.
        if (context.channel.open) context.logger.warn(`conversation ${context.cascadeId}: received model response error: context canceled`);
        // A slower harness confirms the halt late (the knob); the conversation's own end cuts it short.
        if (context.knobs.idleDelayMs > 0) await abortableSleep(context.knobs.idleDelayMs, { signal: context.closing }).catch(() => undefined);
        turn.sendRunState(main, "STATE_FULLY_IDLE");
        return;
      }
      if (error instanceof TurnAbandoned) return;
      if (error instanceof TurnTermination) {
        if (error.ending.stopReason !== undefined) await this.#reportEarlyStop(main, error);
        turn.sendRunState(main, "STATE_FULLY_IDLE", error.ending);
        return;
      }
      context.logger.error(`conversation ${context.cascadeId}: turn failed: ${(error as Error).stack ?? String(error)}`);
      turn.sendRunState(main, "STATE_FULLY_IDLE", { error: "Trajectory execution failed", errorCode: "INTERNAL" });
    }
  }

  /** Matches the scenario's rules against `text` (what the user asks for now, or a STOP hook's reason) and plays the rule's actions. */
  async #playRules(main: TrajectoryRun, text: string, options: { continuation: boolean }): Promise<void> {
    const turn = this.#turn;
    const { context } = turn;
    const match = matchRule(context.scenario, {
      text,
      trigger: turn.input.trigger,
      scheduled: turn.input.scheduled,
      continuation: options.continuation,
      agentBehavior: context.profile.has("agentBehavior") ? context.config.agentBehavior : "AGENT_BEHAVIOR_INTERACTIVE",
      skills: () => context.skills.skills.map((skill) => skill.name),
      lastToolResult: context.memory.lastToolResult,
      config: context.config,
      mcpTools: context.mcp.tools,
    });
    if (match?.mentionedTool !== undefined) turn.variables["mentionedTool"] = match.mentionedTool;
    if (match?.mentionedMcpTool !== undefined) {
      turn.variables["mentionedMcpTool"] = match.mentionedMcpTool.name;
      turn.variables["mentionedMcpServer"] = match.mentionedMcpTool.serverName;
    }
    if (match?.mentionedSkill !== undefined) turn.variables["mentionedSkill"] = match.mentionedSkill;
    const actions: ScenarioAction[] = match?.rule.actions ?? [{ type: "text-emit", text: options.continuation ? "Going on: {{continueReason}}" : 'You said: "{{userText}}"' }];
    await this.#runActions(main, actions);
  }

  /** A budget or the quota stopped the agent: the STOP hook hears why (its answer cannot undo it). */
  async #reportEarlyStop(main: TrajectoryRun, stop: TurnTermination): Promise<void> {
    try {
      await closeOpenStep(this.#turn, main);
      await askToStop(this.#turn, main, { continuationCount: 0, stopReason: stop.ending.stopReason, errorMessage: stop.ending.error });
    } catch (error) {
      if (!this.#turn.signal.aborted) this.#turn.context.logger.warn(`conversation ${this.#turn.context.cascadeId}: STOP hook after an early stop failed: ${String(error)}`);
    }
  }

  /** A server that cannot be loaded ends the turn with the harness's `MCP load failed for <name>: …`. */
  async #loadMcpServers(): Promise<void> {
    try {
      await this.#turn.context.mcp.load({ signal: this.#turn.signal });
    } catch (error) {
      if (error instanceof McpLoadFailure) throw new TurnTermination(error.message, { errorCode: "MCP_LOAD_FAILED" });
      throw error;
    }
  }

  async #runActions(run: TrajectoryRun, actions: readonly ScenarioAction[]): Promise<void> {
    for (let index = 0; index < actions.length; index += 1) {
      const action = actions[index] as ScenarioAction;
      this.#turn.signal.throwIfAborted();
      if (action.type !== "thinking-emit" && action.type !== "text-emit") await closeOpenStep(this.#turn, run);
      const together = subagentRunAt(actions, index, this.#turn.context.knobs.parallelSubagents);
      if (together.length > 1) {
        await this.#runSubagents(run, together);
        index += together.length - 1;
        continue;
      }
      await this.#runAction(run, action);
    }
  }

  #runSubagents(run: TrajectoryRun, actions: Parameters<typeof runSubagents>[2]): Promise<void> {
    return runSubagents(this.#turn, run, actions, (subagent, played) => this.#runActions(subagent, played));
  }

  async #runAction(run: TrajectoryRun, action: ScenarioAction): Promise<void> {
    const turn = this.#turn;
    switch (action.type) {
      case "thinking-emit":
        return streamThinking(turn, run, renderTemplate(action.text, turn.variables), action);
      case "text-emit":
        return streamText(turn, run, renderTemplate(action.text, turn.variables), action);
      case "tool-call":
        turn.context.budget.beforeModelCall();
        turn.context.budget.beforeToolCall();
        return callTool(turn, run, action);
      case "mcp-call":
        turn.context.budget.beforeModelCall();
        turn.context.budget.beforeToolCall();
        return callMcp(turn, run, action);
      case "question-ask":
        turn.context.budget.beforeModelCall();
        return askQuestions(turn, run, action);
      case "subagent-run":
        turn.context.budget.beforeModelCall();
        return this.#runSubagents(run, [action]);
      case "output-finish":
        return finish(turn, run, action.output);
      case "compaction-emit":
        return emitCompaction(turn, run, { text: action.text ?? "Context compaction", summary: action.summary === undefined ? undefined : renderTemplate(action.summary, turn.variables) });
      case "skill-lookup":
        turn.context.budget.beforeModelCall();
        return lookUpSkills(turn, run, action);
      case "schedule-create":
        turn.context.budget.beforeModelCall();
        return scheduleTurn(turn, run, action);
      case "task-manage":
        turn.context.budget.beforeModelCall();
        return manageTask(turn, run, action);
      case "workflow-run":
        turn.context.budget.beforeModelCall();
        return runWorkflow(turn, run, action);
      case "quota-exhaust":
        return exhaustQuota(turn, run, action);
      case "time-wait":
        return abortableSleep(turn.context.knobs.deterministic ? 0 : action.ms, { signal: turn.signal });
      case "error-emit":
      case "turn-fail":
      case "process-exit":
      case "process-kill":
      case "turn-stall":
      case "socket-close":
      case "json-malform":
      case "field-unknown":
        return playFault(turn, run, action);
    }
  }
}
