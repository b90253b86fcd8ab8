import type { ConversationHooks, ToolPolicy, PreToolHookArgs } from "./conversation-config.js";
import { PolicyEngine } from "./policy-engine.js";

export interface ToolGateRequest {
  toolName: string;
  serverName?: string;
  callId?: string;
  argumentsJson: string;
  /** Where the call was made (harness 0.1.13+): told to the pre-tool hook, not part of the call's identity. */
  trajectoryId?: string;
  stepIndex?: number;
}

export type ToolGateDecision =
  | { decision: "allow"; modifiedArguments?: Record<string, unknown> }
  | { decision: "deny"; reason: string };

export function parseArgumentsObject(argumentsJson: string): Record<string, unknown> {
  if (argumentsJson.trim() === "") return {};
  try {
    const parsed: unknown = JSON.parse(argumentsJson);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const DECISION_MEMORY = 1_000;

/**
 * The one place a tool call is allowed or denied: policies first (deny wins outright, confirm
 * defers to the pre-tool hook and denies without one), then the pre-tool hook. The harness may ask
 * about one call through several paths (PRE_TOOL hook, dynamic policy, then the custom toolCall);
 * decisions are remembered per call so a human is asked once.
 */
export class ToolGate {
  readonly #policies: PolicyEngine;
  readonly #preTool: ConversationHooks["preTool"];
  readonly #conversationId: () => string;
  readonly #decisions = new Map<string, Promise<ToolGateDecision>>();

  constructor(options: { policies: readonly ToolPolicy[]; preTool: ConversationHooks["preTool"]; conversationId: () => string }) {
    this.#policies = new PolicyEngine(options.policies);
    this.#preTool = options.preTool;
    this.#conversationId = options.conversationId;
  }

  get policies(): PolicyEngine {
    return this.#policies;
  }

  /** Takes (and forgets) the decision made earlier for this call, e.g. by the PRE_TOOL hook before a toolCall. */
  take(request: ToolGateRequest): Promise<ToolGateDecision> | undefined {
    const key = this.#key(request);
    const decision = this.#decisions.get(key);
    this.#decisions.delete(key);
    return decision;
  }

  /** Decides a call; with `remember`, the decision waits for the matching `take` (custom tools answered by a later toolCall). */
  decide(request: ToolGateRequest, options: { remember: boolean }): Promise<ToolGateDecision> {
    const remembered = this.#decisions.get(this.#key(request));
    if (remembered !== undefined) return remembered;
    const decision = this.#evaluate(request);
    if (!options.remember) return decision;
    this.#decisions.set(this.#key(request), decision);
    if (this.#decisions.size > DECISION_MEMORY) {
      const oldest = this.#decisions.keys().next().value;
      if (oldest !== undefined) this.#decisions.delete(oldest);
    }
    return decision;
  }

  /** Asks the pre-tool hook, for a `confirm` policy; no hook means deny. */
  async confirm(request: ToolGateRequest): Promise<ToolGateDecision> {
    if (this.#preTool === undefined) {
      return { decision: "deny", reason: `${request.toolName} requires confirmation and no pre-tool hook is configured` };
    }
    return this.#askHook(request, "policy-confirm");
  }

  async #evaluate(request: ToolGateRequest): Promise<ToolGateDecision> {
    const verdict = this.#policies.evaluate(request.toolName, request.serverName);
    if (verdict?.decision === "deny") {
      return { decision: "deny", reason: verdict.rule.reason ?? `Denied by policy for ${request.toolName}` };
    }
    if (verdict?.decision === "confirm") return this.confirm(request);
    if (this.#preTool === undefined) return { decision: "allow" };
    return this.#askHook(request, "hook");
  }

  async #askHook(request: ToolGateRequest, reason: PreToolHookArgs["reason"]): Promise<ToolGateDecision> {
    const hook = this.#preTool;
    if (hook === undefined) return { decision: "allow" };
    const result = await hook({
      toolName: request.toolName,
      ...(request.serverName ? { serverName: request.serverName } : {}),
      ...(request.callId ? { callId: request.callId } : {}),
      ...(request.trajectoryId === undefined ? {} : { trajectoryId: request.trajectoryId }),
      ...(request.stepIndex === undefined ? {} : { stepIndex: request.stepIndex }),
      conversationId: this.#conversationId(),
      arguments: parseArgumentsObject(request.argumentsJson),
      argumentsJson: request.argumentsJson,
      reason,
    });
    if (result === undefined || result.decision === "allow") {
      return result?.arguments === undefined ? { decision: "allow" } : { decision: "allow", modifiedArguments: result.arguments };
    }
    return { decision: "deny", reason: result.reason ?? `Denied by the pre-tool hook for ${request.toolName}` };
  }

  #key(request: ToolGateRequest): string {
    // 0.1.10 gives every call an id; older harnesses do not, so fall back to what the call is.
    return request.callId ? `id:${request.callId}` : `call:${request.serverName ?? ""}:${request.toolName}:${request.argumentsJson}`;
  }
}
