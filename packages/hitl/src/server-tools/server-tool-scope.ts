import { AsyncLocalStorage } from "node:async_hooks";
import type { Context } from "@ag-ui/core";
import { HitlError } from "../errors/hitl-error.js";
import type { InterruptAnswer } from "../interrupts/interrupt-answer.js";
import type { InterruptOptions } from "../interrupts/server-tool-interrupt.js";

/** What a running server tool can reach of its thread, found through AsyncLocalStorage. */
export interface ServerToolScope {
  readonly toolCallId: string;
  readonly toolName: string;
  raiseInterrupt(reason: string, options: InterruptOptions, signal: AbortSignal | undefined): Promise<InterruptAnswer>;
  readState(): unknown;
  writeState(state: Record<string, unknown>): void;
  readContext(): Context[];
}

// The store lives on globalThis under a registry symbol: the ESM and CJS builds (or two installs)
// would otherwise each hold their own store, and a tool importing one build would not see a scope
// entered by the other.
const storeKey = Symbol.for("ag-ui-antigravity.hitl.serverToolScope");
const globalRegistry = globalThis as unknown as Record<symbol, AsyncLocalStorage<ServerToolScope> | undefined>;
const store: AsyncLocalStorage<ServerToolScope> = (globalRegistry[storeKey] ??= new AsyncLocalStorage<ServerToolScope>());

/** Runs `body` with `scope` as the current server tool's scope. */
export function runInServerTool<T>(scope: ServerToolScope, body: () => T): T {
  return store.run(scope, body);
}

export function currentScope(what: string): ServerToolScope {
  const scope = store.getStore();
  if (scope === undefined) {
    throw new HitlError("NOT_IN_SERVER_TOOL", `${what}() can only be called while a server tool registered with the HITL bridge is running; it finds its thread through the tool's async context.`);
  }
  return scope;
}
