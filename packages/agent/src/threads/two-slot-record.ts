import { close, ftruncate, open, write, writeFile as writeFileWithCallback } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { dirname } from "node:path";
import { promisify } from "node:util";
import { removeFile } from "./remove-file.js";

/** The callback form: a record is written every turn, and it skips the FileHandle and promise per step of `fs/promises`. */
const writeFile = promisify(writeFileWithCallback);

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
 */
export class TwoSlotRecords {
  readonly #newest = new Map<string, Newest>();
  readonly #maxRemembered: number;

  constructor(options: { maxRemembered: number }) {
    this.#maxRemembered = options.maxRemembered;
  }

  /** The text of the record's newest whole write (serial and seal included), or undefined when no slot holds one. */
  async read(path: string): Promise<string | undefined> {
    const texts = await Promise.all([readSlot(path), readSlot(`${path}${SECOND_SLOT_SUFFIX}`)]);
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

  /** Writes `record` (a JSON object) over the slot that does not hold the newest write. */
  async write(path: string, record: object): Promise<void> {
    const newest = this.#newest.get(path) ?? (await this.read(path), this.#newest.get(path)) ?? { slot: 1, serial: 0, missing: 0 };
    const slot = newest.slot === 0 ? 1 : 0;
    const serial = newest.serial + 1;
    const body = JSON.stringify(record);
    const text = Buffer.from(`{"serial":${serial},${body.slice(1, -1)}${body.length > 2 ? "," : ""}"seal":${serial}}`);
    const target = slot === 0 ? path : `${path}${SECOND_SLOT_SUFFIX}`;
    if ((newest.missing & slotBit(slot)) !== 0) await createInPlace(target, text);
    else if (!(await overwriteInPlace(target, text))) await createInPlace(target, text);
    this.#remember(path, { slot, serial, missing: newest.missing & ~slotBit(slot) });
  }

  /** Removes both slots. */
  async remove(path: string): Promise<void> {
    this.#newest.delete(path);
    await Promise.all([removeFile(path), removeFile(`${path}${SECOND_SLOT_SUFFIX}`)]);
  }

  /** Forgets what it knew of a record whose files were removed by someone else (a clean-up). */
  forget(path: string): void {
    this.#newest.delete(path);
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

async function readSlot(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    // No file, or a path that cannot hold one (a file where the directory should be): no record.
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
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
 * Creates a slot file that is not there (and its directory, on the first write into it); one that
 * another writer created meanwhile is overwritten instead.
 */
async function createInPlace(path: string, buffer: Buffer): Promise<void> {
  try {
    await writeFile(path, buffer, { flag: "wx" });
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") await mkdir(dirname(path), { recursive: true });
    else if (code !== "EEXIST") throw error;
  }
  if (await overwriteInPlace(path, buffer)) return;
  await writeFile(path, buffer, { flag: "wx" });
}

/**
 * Overwrites an existing file with `buffer` in place and cuts it to that length (always: another
 * process may have made it longer); false when there is no file to overwrite.
 */
function overwriteInPlace(path: string, buffer: Buffer): Promise<boolean> {
  return new Promise((resolve, reject) => {
    open(path, "r+", (openError, descriptor) => {
      if (openError !== null) {
        if (openError.code === "ENOENT") resolve(false);
        else reject(openError);
        return;
      }
      const finish = (error: Error | null): void =>
        close(descriptor, (closeError) => {
          const failure = error ?? closeError;
          if (failure === null) resolve(true);
          else reject(failure);
        });
      write(descriptor, buffer, 0, buffer.length, 0, (writeError, written) => {
        if (writeError !== null) return finish(writeError);
        // A short write leaves the slot torn: the write fails and is retried with the next change.
        if (written !== buffer.length) return finish(new Error(`wrote ${written} of ${buffer.length} bytes`));
        ftruncate(descriptor, buffer.length, finish);
      });
    });
  });
}
