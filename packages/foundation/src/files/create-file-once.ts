import { randomUUID } from "node:crypto";
import { link, mkdir, unlink, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * Creates `path` with `contents` unless a file is already there; true when this call created it.
 * The contents go to a private temporary file first and are linked into place (`link` fails with
 * EEXIST rather than replacing), so concurrent callers, in this process or another, never see a
 * half-written file and exactly one of them wins. The parent directory is created when missing.
 */
export async function createFileOnce(path: string, contents: string, options: { mode?: number } = {}): Promise<boolean> {
  await mkdir(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${randomUUID()}.tmp`;
  await writeFile(temporary, contents, { flag: "wx", ...(options.mode === undefined ? {} : { mode: options.mode }) });
  try {
    await link(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}
