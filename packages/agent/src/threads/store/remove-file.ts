import { unlink } from "node:fs/promises";

/**
 * Temporary files of writers that renamed a whole record into place (this package before records
 * moved to two slots, see two-slot-record.ts) were named `<target>.<pid>.<uuid>.tmp`; the save dir's
 * clean-up still removes any such file a killed writer left behind.
 */
export const TEMPORARY_SUFFIX = ".tmp";

/** Removes a file; one that is already gone is not an error. */
export async function removeFile(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
