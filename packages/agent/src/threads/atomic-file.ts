import { randomUUID } from "node:crypto";
import { writeFile as writeFileWithCallback } from "node:fs";
import { mkdir, rename, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { promisify } from "node:util";

/** The callback form: a thread's record is written every turn, and it skips the FileHandle and promise per step of `fs/promises`. */
const writeFile = promisify(writeFileWithCallback);

/** Temporary files are named `<target>.<pid>.<uuid>.tmp`: unique per writer, recognisable when left behind. */
export const TEMPORARY_SUFFIX = ".tmp";

/**
 * Replaces `path` with `text` atomically: the text goes to a temporary file unique to this write
 * (two writers never share one), then is renamed over the target. A process that dies at any point
 * leaves either the old file or the new one, never a torn one. There is no fsync: it cost ~15 ms a
 * write here, and what a power cut could lose is the latest update of a thread, which costs a cold
 * start from the client's transcript, not a wrong conversation (every record is validated on read).
 */
export async function writeFileAtomically(path: string, text: string | Uint8Array): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomUUID()}${TEMPORARY_SUFFIX}`;
  try {
    try {
      await writeFile(temporary, text, { flag: "wx" });
    } catch (error) {
      // The directory is created on the first write into it only: one syscall less on every other.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      await mkdir(dirname(path), { recursive: true });
      await writeFile(temporary, text, { flag: "wx" });
    }
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/** Removes a file; one that is already gone is not an error. */
export async function removeFile(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
