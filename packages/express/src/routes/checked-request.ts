import type { RunAgentInput } from "@ag-ui/core";
import type { Request, Response } from "express";
import type { Principal } from "../auth/principal.js";
import type { AgentTarget } from "./authorized-target.js";

/** A run or connect request that passed the common checks: agent, principal, body, schema, header. */
export interface CheckedRequest {
  readonly request: Request;
  readonly response: Response;
  readonly target: AgentTarget;
  /** Undefined when the binding has no `authorize` hook. */
  readonly principal: Principal | undefined;
  readonly input: RunAgentInput;
  /** The parsed body and, when it was read plain, its JSON text. */
  readonly body: { readonly body: unknown; readonly text?: string };
}

/** The thread's key in the client accounts: unique across the binding's agents. */
export function accountThreadKeyOf(checked: CheckedRequest): string {
  return `${checked.target.name ?? ""}\u0000${checked.input.threadId}`;
}
