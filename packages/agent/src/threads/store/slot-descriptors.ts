import { close } from "node:fs";

/** The open files of one record's two slots, and the length each was last written with by this process. */
export interface OpenSlots {
  readonly path: string;
  /** The descriptor of each slot's file, once opened. */
  readonly descriptors: [number | undefined, number | undefined];
  /**
   * The length each slot's file has since this process last wrote it (undefined: not known, e.g.
   * opened over a file someone else wrote). A write no shorter than it need not cut the file.
   */
  readonly lengths: [number | undefined, number | undefined];
}

interface Held extends OpenSlots {
  users: number;
  /** Forgotten while in use: closed when its last user lets go. */
  doomed: boolean;
}

/**
 * Keeps the slot files of the records written lately open (two-slot-record.ts), so a record written
 * every turn costs a write (and a cut when it got shorter) instead of an open, a write, a cut and a
 * close: four trips to the threadpool, each with its request object and callback on the main thread.
 * Bounded (least recently used records closed first); a record in use (a write in flight) is never
 * closed under it: forgetting or evicting it closes it when its user lets go. `close()` closes all.
 */
export class SlotDescriptors {
  readonly #open = new Map<string, Held>();
  readonly #maxRecords: number;
  readonly #closing = new Set<Promise<void>>();
  #closed = false;

  constructor(options: { maxRecords: number }) {
    this.#maxRecords = options.maxRecords;
  }

  /** Records whose files are held open. */
  get size(): number {
    return this.#open.size;
  }

  /** The record's open files, held until `release`: nothing closes them meanwhile. */
  hold(path: string): OpenSlots {
    let held = this.#open.get(path);
    if (held === undefined) {
      held = { path, descriptors: [undefined, undefined], lengths: [undefined, undefined], users: 0, doomed: this.#closed };
      // Once closed, a late write still works, on files closed after it.
      if (!this.#closed) this.#open.set(path, held);
    } else {
      this.#open.delete(path);
      this.#open.set(path, held);
    }
    held.users += 1;
    this.#evict();
    return held;
  }

  release(slots: OpenSlots): void {
    const held = slots as Held;
    held.users -= 1;
    if (held.users === 0 && held.doomed) void this.#closeAll(held);
    else this.#evict();
  }

  /** Closes one slot's file (a write to it failed: what it holds, and where, is unknown); resolves once it is closed. */
  closeSlot(slots: OpenSlots, slot: 0 | 1): Promise<void> {
    const descriptor = slots.descriptors[slot];
    slots.descriptors[slot] = undefined;
    slots.lengths[slot] = undefined;
    return descriptor === undefined ? Promise.resolve() : this.#closeDescriptor(descriptor);
  }

  /**
   * Forgets a record's files (removed, cleaned up, or read again: another process may have removed
   * and made them anew, and a kept descriptor would write to a file nobody can read). Closed now
   * (resolves once they are), or when the write in flight ends.
   */
  forget(path: string): Promise<void> {
    const held = this.#open.get(path);
    if (held === undefined) return Promise.resolve();
    this.#open.delete(path);
    if (held.users === 0) return this.#closeAll(held);
    held.doomed = true;
    return Promise.resolve();
  }

  /** Closes every file held; records in use close when their write ends. Resolves once the closes are done. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const path of [...this.#open.keys()]) void this.forget(path);
    await Promise.all([...this.#closing]);
  }

  #evict(): void {
    if (this.#open.size <= this.#maxRecords) return;
    for (const [path, held] of this.#open) {
      if (this.#open.size <= this.#maxRecords) return;
      if (held.users > 0) continue;
      this.#open.delete(path);
      void this.#closeAll(held);
    }
  }

  async #closeAll(held: Held): Promise<void> {
    await Promise.all([this.closeSlot(held, 0), this.closeSlot(held, 1)]);
  }

  #closeDescriptor(descriptor: number): Promise<void> {
    // A failed close leaves nothing to do: the descriptor is released either way.
    const closing = new Promise<void>((resolve) => close(descriptor, () => resolve()));
    this.#closing.add(closing);
    void closing.then(() => this.#closing.delete(closing));
    return closing;
  }
}
