import { canonicalJson } from "../json/canonical-json.js";

interface Dispatch {
  arguments: Record<string, unknown>;
  promise: Promise<unknown>;
  settled: boolean;
  result?: unknown;
}

/**
 * At most one dispatch per (tool name, canonical arguments) in a turn. An identical repeat gets the
 * first call's result (waiting for it if it is still parked). A call with other arguments while the
 * same tool is still waiting is the harness's background retry of a slow call, so it waits for the
 * first and is told what ran instead of showing the user a second request. Once the first has
 * settled, a call with new arguments is a legitimate second use and is dispatched.
 */
export class TurnDeduplicator {
  readonly #byKey = new Map<string, Dispatch>();
  readonly #latestByName = new Map<string, Dispatch>();

  async run(toolName: string, args: Record<string, unknown>, dispatch: () => Promise<unknown>): Promise<unknown> {
    const key = `${toolName}\u0000${canonicalJson(args)}`;
    const identical = this.#byKey.get(key);
    if (identical !== undefined) return identical.promise;
    const latest = this.#latestByName.get(toolName);
    if (latest !== undefined && !latest.settled) {
      const result = await latest.promise;
      return alreadyRanStatement(toolName, latest.arguments, result, args);
    }
    const entry: Dispatch = { arguments: args, promise: dispatch(), settled: false };
    this.#byKey.set(key, entry);
    this.#latestByName.set(toolName, entry);
    entry.promise.then(
      (result) => {
        entry.settled = true;
        entry.result = result;
      },
      () => {
        entry.settled = true;
        // A failed dispatch is not a result to replay: the next identical call may try again.
        if (this.#byKey.get(key) === entry) this.#byKey.delete(key);
      },
    );
    return entry.promise;
  }

  /** Forgets every dispatch (the turn ended). */
  clear(): void {
    this.#byKey.clear();
    this.#latestByName.clear();
  }
}

function alreadyRanStatement(toolName: string, ranWith: Record<string, unknown>, result: unknown, askedWith: Record<string, unknown>): string {
  const shown = typeof result === "string" ? result : JSON.stringify(result);
  return `${toolName} already ran in this turn with arguments ${JSON.stringify(ranWith)} and returned: ${shown}. It was not run again with arguments ${JSON.stringify(askedWith)}; use that result.`;
}
