import type { ParkedFrontendTool, ParkedInterrupt, ParkedItem, SettledRecord } from "./parked-item.js";

export interface ParkingLotOptions {
  now: () => number;
  /** Called after an item's deadline passed and it was released. */
  onExpired: (item: ParkedItem) => void;
  /** How many settled ids to remember for replay safety. */
  settledMemory?: number;
}

/**
 * The parked items of one thread, each with an unref'd deadline timer this lot owns. An item leaves
 * the lot exactly once: taken by an answer, expired, or failed on close.
 */
export class ParkingLot {
  readonly #items = new Map<string, { item: ParkedItem; timer: NodeJS.Timeout }>();
  readonly #settled = new Map<string, SettledRecord>();
  readonly #options: ParkingLotOptions;
  readonly #listeners = new Set<() => void>();

  constructor(options: ParkingLotOptions) {
    this.#options = options;
  }

  park(item: ParkedItem): void {
    const timer = setTimeout(() => this.#expire(item.id), Math.max(0, item.expiresAtMs - this.#options.now()));
    timer.unref();
    this.#items.set(item.id, { item, timer });
    for (const listener of this.#listeners) listener();
  }

  /** Removes the item so it can be settled by its caller; undefined when it is not parked. */
  take(id: string, record: SettledRecord = "answered"): ParkedItem | undefined {
    const entry = this.#items.get(id);
    if (entry === undefined) return undefined;
    clearTimeout(entry.timer);
    this.#items.delete(id);
    this.#remember(id, record);
    return entry.item;
  }

  get(id: string): ParkedItem | undefined {
    return this.#items.get(id)?.item;
  }

  settledRecord(id: string): SettledRecord | undefined {
    return this.#settled.get(id);
  }

  get size(): number {
    return this.#items.size;
  }

  interrupts(): ParkedInterrupt[] {
    return [...this.#items.values()].map((entry) => entry.item).filter((item): item is ParkedInterrupt => item.kind !== "frontend-tool");
  }

  frontendTools(): ParkedFrontendTool[] {
    return [...this.#items.values()].map((entry) => entry.item).filter((item): item is ParkedFrontendTool => item.kind === "frontend-tool");
  }

  /** Calls `listener` each time an item parks; returns the unsubscribe function. */
  onPark(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Fails every parked item with `error` and forgets them (teardown). */
  failAll(error: unknown): void {
    const entries = [...this.#items.values()];
    this.#items.clear();
    for (const entry of entries) {
      clearTimeout(entry.timer);
      entry.item.fail(error);
    }
  }

  #expire(id: string): void {
    const item = this.take(id, "expired");
    if (item !== undefined) this.#options.onExpired(item);
  }

  #remember(id: string, record: SettledRecord): void {
    this.#settled.delete(id);
    this.#settled.set(id, record);
    const limit = this.#options.settledMemory ?? 1_000;
    // Maps iterate in insertion order, so the first key is the oldest.
    while (this.#settled.size > limit) this.#settled.delete(this.#settled.keys().next().value as string);
  }
}
