import { setImmediate as macrotask } from "node:timers/promises";
import type { NormalizedStep } from "@ag-ui-antigravity/harness";
import { describe, expect, it } from "vitest";
import { TurnSequencer, type TurnStarter } from "./turn-sequencer.js";

/** A turn with no steps that lasts until it is halted; `holdDrain` keeps it draining until released. */
function quietTurn(signal: AbortSignal, holdDrain?: Promise<void>): AsyncIterable<NormalizedStep> {
  const halted = new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
  return {
    [Symbol.asyncIterator]: () => ({
      next: async (): Promise<IteratorResult<NormalizedStep>> => {
        await halted;
        await holdDrain;
        return { done: true, value: undefined };
      },
    }),
  };
}

function setup(starter: TurnStarter<unknown>, preamble: () => string | undefined = () => undefined) {
  const bridge = new AbortController();
  const turnsEnded: number[] = [];
  const turns = new TurnSequencer({ signal: bridge.signal, preamble });
  turns.onTurnEnd(() => turnsEnded.push(turnsEnded.length + 1));
  turns.useStarter(starter);
  return { bridge, turns, turnsEnded };
}

describe("TurnSequencer", () => {
  it("starts queued input only once the halted turn before it has drained, with the preamble of that moment", async () => {
    let releaseDrain!: () => void;
    const drained = new Promise<void>((resolve) => (releaseDrain = resolve));
    const started: { input: unknown; preamble: string | undefined }[] = [];
    let note = "while draining";
    const { turns, turnsEnded } = setup(
      (input, { preamble, signal }) => {
        started.push({ input, preamble });
        return quietTurn(signal, input === "first" ? drained : undefined);
      },
      () => note,
    );
    turns.queue("first");
    const first = await turns.startNext();
    turns.queue("second");
    turns.halt(first!);
    expect(turns.current()).toBeUndefined();
    const second = turns.startNext();
    await macrotask();
    expect(started.map((start) => start.input)).toEqual(["first"]);
    note = "after the drain";
    releaseDrain();
    const secondTurn = await second;
    expect(turns.current()).toBe(secondTurn);
    expect(started).toEqual([
      { input: "first", preamble: "while draining" },
      { input: "second", preamble: "after the drain" },
    ]);
    expect(turnsEnded).toEqual([1]);
    await turns.close();
    expect(turnsEnded).toEqual([1, 2]);
  });

  it("retires a turn whose starter throws, so no turn is left current and listeners hear of it", async () => {
    const { turns, turnsEnded } = setup(() => {
      throw new Error("send refused");
    });
    turns.queue("hello");
    await expect(turns.startNext()).rejects.toThrow("send refused");
    expect(turns.current()).toBeUndefined();
    expect(turnsEnded).toEqual([1]);
  });

  it("on close, halts the current turn and drops the queued input", async () => {
    const started: unknown[] = [];
    const { turns, turnsEnded } = setup((input, { signal }) => (started.push(input), quietTurn(signal)));
    turns.queue("first");
    turns.queue("second");
    const first = await turns.startNext();
    await turns.close();
    expect([first?.signal.aborted, first?.retired, turnsEnded]).toEqual([true, true, [1]]);
    expect(await turns.startNext()).toBeUndefined();
    expect(started).toEqual(["first"]);
  });

  it("starts nothing once the bridge's signal has aborted", async () => {
    const started: unknown[] = [];
    const { bridge, turns } = setup((input, { signal }) => (started.push(input), quietTurn(signal)));
    turns.queue("hello");
    bridge.abort();
    expect(await turns.startNext()).toBeUndefined();
    expect(started).toEqual([]);
  });
});
