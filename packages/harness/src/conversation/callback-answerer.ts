import { linkSignals, type Logger } from "@ag-ui-antigravity/foundation";
import type { HarnessDialect } from "../protocol/dialect.js";
import type { CallHookRequest, InputEvent, PolicyDecisionRequest, ToolCall } from "../protocol/messages.js";
import type { NormalizedStep } from "../steps/normalized-step.js";
import type { CustomTool, ResolvedConversationConfig } from "./conversation-config.js";
import { respondToHook } from "./hook-responder.js";
import { decidePolicy, runCustomTool } from "./host-callbacks.js";
import { ToolGate } from "./tool-gate.js";
import { answerConfirmation, answerQuestions } from "./wait-request-responder.js";

const MAX_REMEMBERED_REQUESTS = 10_000;

/** Remembers ids already answered, so re-broadcast requests are answered once; bounded. */
class AnsweredSet {
  readonly #ids = new Set<string>();

  /** True the first time an id is seen. */
  claim(id: string): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.add(id);
    if (this.#ids.size > MAX_REMEMBERED_REQUESTS) {
      const oldest = this.#ids.values().next().value;
      if (oldest !== undefined) this.#ids.delete(oldest);
    }
    return true;
  }

  release(id: string): void {
    this.#ids.delete(id);
  }
}

/** What the answerer needs from its conversation. */
export interface CallbackAnswererHost {
  readonly config: ResolvedConversationConfig;
  readonly dialect: HarnessDialect;
  readonly logger: Logger;
  /** The conversation's signal: aborted when it closes. */
  readonly signal: AbortSignal;
  conversationId(): string;
  /** The running turn's stop signal, if a turn runs. */
  turnStopSignal(): AbortSignal | undefined;
  /** The harness asked for the post-turn hook: the running turn ends once it is answered. */
  notePostTurnHook(): void;
  /** Runs host code that may wait on a human; the turn's timeout does not run meanwhile. */
  parked<T>(work: () => Promise<T>): Promise<T>;
  /** Sends a reply; a closed connection is reported elsewhere. */
  reply(message: InputEvent, messageKey: string): Promise<void>;
}

/**
 * Answers what the harness asks of the host (docs/protocol.md, "Callbacks" and "Custom tools"):
 * hooks, dynamic policy decisions, custom tool calls, questions and confirmations. Each request is
 * answered exactly once, however often the harness re-broadcasts it, and always answered, because
 * the harness waits with no timeout. One per conversation; it owns the tool gate.
 */
export class CallbackAnswerer {
  readonly #host: CallbackAnswererHost;
  readonly #gate: ToolGate;
  readonly #tools: ReadonlyMap<string, CustomTool>;
  readonly #customToolNames: ReadonlySet<string>;
  readonly #answeredHooks = new AnsweredSet();
  readonly #answeredToolCalls = new AnsweredSet();
  readonly #answeredWaits = new AnsweredSet();

  constructor(host: CallbackAnswererHost) {
    this.#host = host;
    const config = host.config;
    this.#tools = new Map(config.customTools.map((tool) => [tool.name, tool]));
    this.#customToolNames = new Set(this.#tools.keys());
    this.#gate = new ToolGate({ policies: config.policies, preTool: config.hooks.preTool, conversationId: () => host.conversationId() });
  }

  /** Questions and confirmations are answered once per (trajectoryId, stepIndex, kind) while the step waits. */
  answerWaitRequests(step: NormalizedStep): void {
    const questionKey = `${step.id}:question`;
    const confirmationKey = `${step.id}:confirmation`;
    if (step.status !== "waiting") {
      this.#answeredWaits.release(questionKey);
      this.#answeredWaits.release(confirmationKey);
      return;
    }
    const host = this.#host;
    const hooks = host.config.hooks;
    // Each answer gets its own link to the conversation's and the turn's signals, undone when the
    // answer settles: the conversation's signal lives as long as the conversation (linkSignals).
    const turnStop = host.turnStopSignal();
    if (step.raw.questionsRequest !== undefined && this.#answeredWaits.claim(questionKey)) {
      const link = linkSignals([host.signal, turnStop]);
      void host
        .parked(() => answerQuestions(step, { hooks, logger: host.logger, conversationId: host.conversationId(), signal: link.signal }))
        .finally(link.unlink)
        .then((response) => host.reply({ questionResponse: response }, "questionResponse"));
    }
    if (step.raw.toolConfirmationRequest !== undefined && this.#answeredWaits.claim(confirmationKey)) {
      const link = linkSignals([host.signal, turnStop]);
      void host
        .parked(() => answerConfirmation(step, { hooks, gate: this.#gate, conversationId: host.conversationId(), signal: link.signal }))
        .finally(link.unlink)
        .then((confirmation) => host.reply({ toolConfirmation: confirmation }, "toolConfirmation"));
    }
  }

  async answerHook(request: CallHookRequest): Promise<void> {
    if (!this.#answeredHooks.claim(request.requestId ?? "")) return;
    const host = this.#host;
    if (request.type === "LIFECYCLE_HOOK_POST_TURN") host.notePostTurnHook();
    const response = await host.parked(() =>
      respondToHook(request, {
        hooks: host.config.hooks,
        gate: this.#gate,
        dialect: host.dialect,
        conversationId: () => host.conversationId(),
        customToolNames: this.#customToolNames,
      }),
    );
    await host.reply({ callHookResponse: response }, "callHookResponse");
  }

  async answerPolicyDecision(request: PolicyDecisionRequest): Promise<void> {
    if (!this.#answeredHooks.claim(`policy:${request.requestId ?? ""}`)) return;
    const host = this.#host;
    const response = await decidePolicy(request, {
      gate: this.#gate,
      policies: host.config.policies,
      customToolNames: this.#customToolNames,
      parked: (work) => host.parked(work),
    });
    await host.reply({ policyDecisionResponse: response }, "policyDecisionResponse");
  }

  async answerToolCall(call: ToolCall): Promise<void> {
    if (!this.#answeredToolCalls.claim(call.id ?? "")) return;
    const host = this.#host;
    const response = await host.parked(() =>
      runCustomTool(call, { tools: this.#tools, gate: this.#gate, conversationId: host.conversationId(), signals: [host.signal, host.turnStopSignal()] }),
    );
    await host.reply({ toolResponse: response }, "toolResponse");
  }
}
