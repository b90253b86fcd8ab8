import { ftruncate, open, readFile, statSync, writev } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import { removeFile } from "./remove-file.js";
import { type OpenSlots, SlotDescriptors } from "./slot-descriptors.js";

/** The second slot of a record at `path` (the first is `path` itself). */
export const SECOND_SLOT_SUFFIX = ".1";

/** Which slot holds a record's newest whole write, that write's serial, and the slots last seen missing. */
interface Newest {
  slot: 0 | 1;
  serial: number;
  /** Bit 0: the first slot's file did not exist; bit 1: the second's. */
  missing: number;
}

const slotBit = (slot: 0 | 1): number => (slot === 0 ? 1 : 2);

/**
 * One record kept in two files (slots) written in turn, each write overwriting the slot that does
 * not hold the newest record, in place. A whole write carries its serial at both ends; a read takes
 * the whole slot with the higher serial. A process killed mid-write leaves the slot it was writing
 * torn (its ends disagree, or it does not parse) and the other slot whole: a reader gets the old
 * record or the new one, never a torn one, as with a rename. In place, because a rename over an
 * existing file makes ext4 flush the new file's data at once (auto_da_alloc): a temporary file and a
 * rename cost ~150 µs of CPU per write here, an in-place overwrite ~15 µs, and a thread's record
 * is written every turn. A slot file that does not exist yet is created in place too, exclusively:
 * half made, it is torn like any other and read as missing. A slot a read found missing is created
 * straight away rather than first tried for an overwrite, a file-system round trip less (a new
 * thread's first turn waits for its first record; one such round trip took 0.2–1 ms on a busy
 * disk here). Writes of one record must not overlap (the caller serialises them); which slot is
 * newest, and which slots were missing, is remembered per record, learnt from the files on a read.
 * The slot files of the records written lately stay open (slot-descriptors.ts): a record written
 * every turn is then one positional write per turn, plus a cut when it got shorter.
 */
export class TwoSlotRecords {
  readonly #newest = new Map<string, Newest>();
  readonly #maxRemembered: number;
  readonly #descriptors: SlotDescriptors;

  constructor(options: { maxRemembered: number; maxOpenRecords: number }) {
    this.#maxRemembered = options.maxRemembered;
    this.#descriptors = new SlotDescriptors({ maxRecords: options.maxOpenRecords });
  }

  /** Records whose slot files are held open. */
  get openRecords(): number {
    return this.#descriptors.size;
  }

  /** The text of the record's newest whole write (serial and seal included), or undefined when no slot holds one. */
  async read(path: string): Promise<string | undefined> {
    // What the files say now may be another process's doing (it may even have removed and made them
    // anew): the next write opens them again.
    const secondPath = `${path}${SECOND_SLOT_SUFFIX}`;
    const [first, second] =
      missingNow(path) && missingNow(secondPath)
        ? [undefined, undefined, await this.#descriptors.forget(path)]
        : await Promise.all([readSlot(path), readSlot(secondPath), this.#descriptors.forget(path)]);
    const texts = [first, second] as const;
    const missing = (texts[0] === undefined ? slotBit(0) : 0) | (texts[1] === undefined ? slotBit(1) : 0);
    let newest: { slot: 0 | 1; serial: number; text: string } | undefined;
    for (const slot of [0, 1] as const) {
      const text = texts[slot];
      const serial = text === undefined ? undefined : serialOf(text);
      if (text !== undefined && serial !== undefined && (newest === undefined || serial > newest.serial)) newest = { slot, serial, text };
    }
    // What the files say now is what the next write builds on (another process may have written
    // them), unless this process already wrote a later one (a read that overlapped its write).
    const known = this.#newest.get(path);
    if (known === undefined || (newest !== undefined && newest.serial >= known.serial)) {
      this.#remember(path, newest === undefined ? { slot: 1, serial: 0, missing } : { slot: newest.slot, serial: newest.serial, missing });
    }
    return newest?.text;
  }

  /**
   * Writes a record over the slot that does not hold the newest write. `members` is the text of
   * the record's JSON object without its braces, in chunks (written as they are, not joined).
   */
  async write(path: string, members: readonly Uint8Array[]): Promise<void> {
    const newest = this.#newest.get(path) ?? (await this.read(path), this.#newest.get(path)) ?? { slot: 1, serial: 0, missing: 0 };
    const slot = newest.slot === 0 ? 1 : 0;
    const serial = newest.serial + 1;
    let length = 0;
    for (const chunk of members) length += chunk.byteLength;
    const chunks = [Buffer.from(`{"serial":${serial},`), ...members, Buffer.from(`${length > 0 ? "," : ""}"seal":${serial}}`)];
    length += (chunks[0] as Uint8Array).byteLength + (chunks.at(-1) as Uint8Array).byteLength;
    const target = slot === 0 ? path : `${path}${SECOND_SLOT_SUFFIX}`;
    const slots = this.#descriptors.hold(path);
    try {
      await this.#writeSlot(slots, slot, target, chunks, length, (newest.missing & slotBit(slot)) !== 0);
    } finally {
      this.#descriptors.release(slots);
    }
    this.#remember(path, { slot, serial, missing: newest.missing & ~slotBit(slot) });
  }

  async #writeSlot(slots: OpenSlots, slot: 0 | 1, target: string, chunks: Uint8Array[], length: number, missing: boolean): Promise<void> {
    let descriptor = slots.descriptors[slot];
    if (descriptor === undefined) {
      const opened = missing ? await createSlot(target) : ((await openExisting(target)) ?? (await createSlot(target)));
      descriptor = opened.descriptor;
      slots.descriptors[slot] = descriptor;
      slots.lengths[slot] = opened.created ? 0 : undefined;
    }
    try {
      const written = await writeAt(descriptor, chunks);
      // A short write leaves the slot torn: the write fails and is retried with the next change.
      if (written !== length) throw new Error(`wrote ${written} of ${length} bytes`);
      // Cut when the file may be longer (a longer record before, or another process's), so nothing
      // of an older write trails this one.
      const known = slots.lengths[slot];
      if (known === undefined || known > length) await truncate(descriptor, length);
      slots.lengths[slot] = length;
    } catch (error) {
      this.#descriptors.closeSlot(slots, slot);
      throw error;
    }
  }

  /** Removes both slots. */
  async remove(path: string): Promise<void> {
    this.#newest.delete(path);
    await this.#descriptors.forget(path);
    await Promise.all([removeFile(path), removeFile(`${path}${SECOND_SLOT_SUFFIX}`)]);
  }

  /** Forgets what it knew of a record whose files were removed by someone else (a clean-up). */
  forget(path: string): Promise<void> {
    this.#newest.delete(path);
    return this.#descriptors.forget(path);
  }

  /** Closes the slot files held open; a write still in flight closes its own when it ends. */
  close(): Promise<void> {
    return this.#descriptors.close();
  }

  #remember(path: string, newest: Newest): void {
    this.#newest.delete(path);
    this.#newest.set(path, newest);
    if (this.#newest.size > this.#maxRemembered) {
      const [oldest] = this.#newest.keys();
      if (oldest !== undefined) this.#newest.delete(oldest);
    }
  }
}

/** The record path a slot file belongs to. */
export function recordPathOfSlot(path: string): string {
  return path.endsWith(SECOND_SLOT_SUFFIX) ? path.slice(0, -SECOND_SLOT_SUFFIX.length) : path;
}

/**
 * True when no file is at `path` now, asked of the file system at once: a new thread's record is
 * looked up before its first turn can start, and both its slots are missing. Read through the
 * thread pool, that lookup waited for a pool thread to wake and answer: 0.4-0.9 ms after an idle
 * moment here, most of what a new thread's first turn cost beyond a warm turn's. A lookup of a
 * name in a local directory is one system call (microseconds), made once per session, never per
 * turn. Anything but "no such entry" (a file there, a permission error) is left to the reads.
 */
function missingNow(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) === undefined;
  } catch {
    return false;
  }
}

/**
 * A slot's text; undefined when there is no such file, or a path that cannot hold one (a file where
 * the directory should be). The callback form: a new thread's first run reads both slots of a
 * record that is not there before its prompt can go out, and `fs/promises`' readFile took ~0.2 ms
 * longer for the two (0.62 against 0.41 ms, medians, after a 300 ms idle pause here).
 */
function readSlot(path: string): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    readFile(path, "utf8", (error, text) => {
      if (error === null) resolve(text);
      else if (error.code === "ENOENT" || error.code === "ENOTDIR") resolve(undefined);
      else reject(error);
    });
  });
}

/**
 * The serial of a whole write: its two ends agree. A record written before slots (no serial, no
 * seal) counts as serial 0; anything that does not parse, or whose ends disagree, is torn.
 */
function serialOf(text: string): number | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { serial, seal } = value as { serial?: unknown; seal?: unknown };
  if (serial === undefined && seal === undefined) return 0;
  return typeof serial === "number" && Number.isSafeInteger(serial) && serial === seal ? serial : undefined;
}

/**
 * Creates a slot file that is not there (and its directory, on the first write into it), exclusively:
 * one that another writer created meanwhile is opened to be overwritten instead.
 */
async function createSlot(path: string): Promise<{ descriptor: number; created: boolean }> {
  try {
    return { descriptor: await openFile(path, "wx"), created: true };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") await mkdir(dirname(path), { recursive: true });
    else if (code !== "EEXIST") throw error;
  }
  const existing = await openExisting(path);
  if (existing !== undefined) return existing;
  return { descriptor: await openFile(path, "wx"), created: true };
}

/** Opens an existing slot file to overwrite it in place; undefined when there is none. */
async function openExisting(path: string): Promise<{ descriptor: number; created: boolean } | undefined> {
  try {
    return { descriptor: await openFile(path, "r+"), created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

// The callback forms, wrapped by hand: a record is written every turn, and they skip the FileHandle
// and the promise per step of `fs/promises`.
function openFile(path: string, flags: string): Promise<number> {
  return new Promise((resolve, reject) => open(path, flags, (error, descriptor) => (error === null ? resolve(descriptor) : reject(error))));
}

/** Writes the chunks at the start of the file, in one call; resolves with the bytes written. */
function writeAt(descriptor: number, chunks: Uint8Array[]): Promise<number> {
  return new Promise((resolve, reject) => writev(descriptor, chunks, 0, (error, written) => (error === null ? resolve(written) : reject(error))));
}

function truncate(descriptor: number, length: number): Promise<void> {
  return new Promise((resolve, reject) => ftruncate(descriptor, length, (error) => (error === null ? resolve() : reject(error))));
}
