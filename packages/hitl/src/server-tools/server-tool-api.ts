import type { Context } from "@ag-ui/core";
import type { InterruptAnswer } from "../interrupts/interrupt-answer.js";
import type { InterruptOptions } from "../interrupts/server-tool-interrupt.js";
import { findNonJson, isPlainObject } from "../json/json-value.js";
import { currentScope } from "./server-tool-scope.js";

/**
 * Asks the user from inside a server tool and waits for the answer, across runs if need be. The run
 * ends with an interrupt outcome carrying `reason`, the options, and this tool's `toolCallId`; a later
 * run's answer resumes the tool. `status` is "resolved" (with the answer as `payload`), "cancelled"
 * (the user refused) or "abandoned" (the user moved on, or the deadline passed).
 *
 * @example
 * const answer = await interrupt("myapp:confirm_booking", { message: "Book the 10:00 slot?", responseSchema: { type: "boolean" } });
 * if (answer.status === "resolved" && answer.payload === true) await book();
 */
export function interrupt(reason: string, options: InterruptOptions = {}, callOptions: { signal?: AbortSignal } = {}): Promise<InterruptAnswer> {
  const scope = currentScope("interrupt");
  return scope.raiseInterrupt(reason, options, callOptions.signal);
}

/**
 * A copy of the thread's shared state: the client's latest, or a newer one a tool wrote.
 *
 * @example
 * const { items = [] } = getState() as { items?: string[] };
 */
export function getState(): unknown {
  return structuredClone(currentScope("getState").readState());
}

/**
 * Replaces the thread's shared state. The client receives STATE_SNAPSHOT (or STATE_DELTA once a
 * snapshot went out in this run) before this tool's TOOL_CALL_RESULT; while the turn is parked the
 * write is kept and delivered at the start of the next run.
 *
 * @throws TypeError when `state` is not a plain object of JSON values.
 *
 * @example
 * setState({ ...(getState() as object), items: [...items, "milk"] });
 */
export function setState(state: Record<string, unknown>): void {
  const scope = currentScope("setState");
  if (!isPlainObject(state)) throw new TypeError("setState() takes a plain JSON object (AG-UI state written by a tool is an object).");
  const where = findNonJson(state);
  if (where !== undefined) throw new TypeError(`setState() takes JSON only; the value at ${where} is not JSON.`);
  scope.writeState(structuredClone(state));
}

/**
 * The run's `RunAgentInput.context`: the ambient `{ description, value }` entries the client sent.
 *
 * @example
 * const page = getContext().find((entry) => entry.description === "current page")?.value;
 */
export function getContext(): Context[] {
  return structuredClone(currentScope("getContext").readContext());
}
