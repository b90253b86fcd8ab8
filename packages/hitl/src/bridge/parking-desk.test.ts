import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import type { Interrupt } from "@ag-ui/core";
import type { InterruptAnswer } from "../interrupts/interrupt-answer.js";
import type { FrontendToolOutcome, ParkedFrontendTool, ParkedInterrupt } from "../parking/parked-item.js";
import { ParkingLot } from "../parking/parking-lot.js";
import { ParkingDesk } from "./parking-desk.js";

const interrupt: Interrupt = { id: "unused", reason: "test:ask" };

function setup() {
  const lifetime = new AbortController();
  const lot = new ParkingLot({ now: () => 1_000, onExpired: () => undefined });
  const desk = new ParkingDesk({ lot, signal: lifetime.signal, now: () => 1_000, parkTimeoutMs: 60_000 });
  return { lifetime, lot, desk };
}

/** The parked item of `id`, of the kind the caller parked it as. */
function parked<T extends ParkedInterrupt | ParkedFrontendTool>(lot: ParkingLot, id: string): T {
  const item = lot.get(id);
  if (item === undefined) throw new Error(`${id} is not parked`);
  return item as T;
}

function parkFrontendTool(desk: ParkingDesk, id: string, signal?: AbortSignal): Promise<FrontendToolOutcome> {
  return desk.parkWith<FrontendToolOutcome>((settle, fail) => ({ kind: "frontend-tool", id, toolName: "pick", arguments: {}, expiresAtMs: 61_000, settle, fail }), signal);
}

describe("ParkingDesk", () => {
  it("gives a deadline parkTimeoutMs from now, as milliseconds and as an ISO date", () => {
    expect(setup().desk.deadline()).toEqual({ expiresAtMs: 61_000, expiresAt: new Date(61_000).toISOString() });
  });

  it("releases a parked request when the harness aborts its handler's signal, and remembers it as abandoned", async () => {
    const { lot, desk } = setup();
    const handler = new AbortController();
    const waiting = desk.park({ kind: "question", id: "q-1", interrupt }, 61_000, handler.signal);
    expect(lot.size).toBe(1);
    handler.abort(new Error("turn cancelled"));
    await expect(waiting).rejects.toThrow("turn cancelled");
    expect(lot.size).toBe(0);
    expect(lot.settledRecord("q-1")).toBe("abandoned");
  });

  it("parks nothing for a handler already aborted, nor once the bridge is closing", async () => {
    const { lifetime, lot, desk } = setup();
    await expect(parkFrontendTool(desk, "call-1", AbortSignal.abort(new Error("already gone")))).rejects.toThrow("already gone");
    lifetime.abort(new Error("closed"));
    await expect(parkFrontendTool(desk, "call-2")).rejects.toThrow("closed");
    expect(lot.size).toBe(0);
  });

  it("stops listening to the handler's signal once the request is settled", async () => {
    const { lot, desk } = setup();
    const handler = new AbortController();
    const waiting = parkFrontendTool(desk, "call-1", handler.signal);
    expect(getEventListeners(handler.signal, "abort")).toHaveLength(1);
    desk.settle({ interrupts: [], frontendTools: [{ item: parked<ParkedFrontendTool>(lot, "call-1"), outcome: { type: "result", content: "blue" } }], ignored: [] });
    await expect(waiting).resolves.toEqual({ type: "result", content: "blue" });
    expect(getEventListeners(handler.signal, "abort")).toHaveLength(0);
  });

  it("takes every answered item out of the lot before settling any of them", async () => {
    const { lot, desk } = setup();
    const parkedWhenSettled: number[] = [];
    const parkObserved = (id: string): Promise<InterruptAnswer> =>
      desk.parkWith<InterruptAnswer>(
        (settle, fail) => ({ kind: "server-interrupt", id, interrupt, expiresAtMs: 61_000, settle: (answer) => (parkedWhenSettled.push(lot.size), settle(answer)), fail }),
        undefined,
      );
    const first = parkObserved("i-1");
    const second = parkObserved("i-2");
    const answer: InterruptAnswer = { status: "resolved", payload: true };
    const start = desk.settle({ interrupts: [{ item: parked<ParkedInterrupt>(lot, "i-1"), answer }, { item: parked<ParkedInterrupt>(lot, "i-2"), answer }], frontendTools: [], ignored: ["replayed i-0"] });
    expect(parkedWhenSettled).toEqual([0, 0]);
    expect(start).toEqual({ resolvedInterruptIds: ["i-1", "i-2"], resolvedToolCallIds: [], abandonedIds: [], ignored: ["replayed i-0"] });
    await expect(Promise.all([first, second])).resolves.toEqual([answer, answer]);
  });

  it("abandons everything parked, each kind in its own shape, and names what it released", async () => {
    const { lot, desk } = setup();
    const question = desk.park({ kind: "question", id: "q-1", interrupt }, 61_000, undefined);
    const tool = parkFrontendTool(desk, "call-1");
    expect(desk.abandonAll("new-input")).toEqual(["q-1", "call-1"]);
    await expect(question).resolves.toEqual({ status: "abandoned", cause: "new-input" });
    await expect(tool).resolves.toEqual({ type: "abandoned", cause: "new-input" });
    expect([lot.size, lot.settledRecord("q-1"), lot.settledRecord("call-1")]).toEqual([0, "abandoned", "abandoned"]);
  });
});
