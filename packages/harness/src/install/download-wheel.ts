import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import type { Dispatcher } from "undici";
import { PackageIndexError } from "./package-index.js";
import type { IndexFile } from "./platform-wheel.js";

/** How far a download has come, for a progress line. */
export interface DownloadProgress {
  received: number;
  /** Undefined when the server does not say. */
  total: number | undefined;
}

/**
 * Downloads a wheel to `destination` (a file that must not exist yet: it is created exclusively) and
 * checks its sha256 against the index's. Throws PackageIndexError for a failed download or a wrong
 * checksum; the caller removes the file then.
 */
export async function downloadWheel(
  file: IndexFile,
  destination: string,
  options: { dispatcher?: Dispatcher | undefined; signal?: AbortSignal | undefined; onProgress?: ((progress: DownloadProgress) => void) | undefined },
): Promise<void> {
  if (file.sha256 === undefined) throw new PackageIndexError(`the package index gives no sha256 for ${file.filename}; refusing to install it unchecked`);
  const { fetch } = await import("undici");
  let response: Awaited<ReturnType<typeof fetch>>;
  try {
    response = await fetch(file.url, {
      ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    throw new PackageIndexError(`cannot download ${file.filename}: ${error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error)}`);
  }
  if (!response.ok || response.body === null) throw new PackageIndexError(`downloading ${file.filename} failed: HTTP ${response.status}`);
  const length = Number(response.headers.get("content-length"));
  const total = Number.isFinite(length) && length > 0 ? length : undefined;
  const hash = createHash("sha256");
  const handle = await open(destination, "wx", 0o600);
  let received = 0;
  try {
    for await (const chunk of response.body) {
      hash.update(chunk);
      await handle.write(chunk);
      received += chunk.byteLength;
      options.onProgress?.({ received, total });
    }
  } finally {
    await handle.close();
  }
  const actual = hash.digest("hex");
  if (actual !== file.sha256) throw new PackageIndexError(`${file.filename} does not match the index's checksum (sha256 ${actual}, expected ${file.sha256}); nothing was installed`);
}
