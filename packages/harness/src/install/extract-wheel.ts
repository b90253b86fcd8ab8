import { createWriteStream } from "node:fs";
import { pipeline } from "node:stream/promises";
import type { Entry, ZipFile } from "yauzl";
import { BINARY_FILE, DESCRIPTOR_FILE } from "./harness-cache.js";
import { PackageIndexError } from "./package-index.js";

/*
 * Takes the two files we want out of a google-antigravity wheel: the harness binary
 * (`google/antigravity/bin/localharness`) and the generated protocol module whose serialized
 * descriptor is the release's exact protocol (`localharness_pb2.py`, wherever the wheel keeps it).
 */

/** What was extracted, by destination path; the descriptor is absent from wheels that do not ship one. */
export interface ExtractedWheel {
  binary: string;
  descriptor: string | undefined;
}

/** Extracts the binary (made executable) and the descriptor module into `directory`. */
export async function extractHarnessFiles(wheelPath: string, directory: string): Promise<ExtractedWheel> {
  const yauzl = await import("yauzl");
  const zip = await new Promise<ZipFile>((resolve, reject) => {
    yauzl.default.open(wheelPath, { lazyEntries: true, autoClose: true }, (error, file) => (error ? reject(error) : resolve(file)));
  }).catch((error: unknown) => {
    throw new PackageIndexError(`the downloaded wheel is not a zip archive: ${error instanceof Error ? error.message : String(error)}`);
  });
  const binaryEntry = `google/antigravity/bin/${BINARY_FILE}`;
  const binary = `${directory}/${BINARY_FILE}`;
  const descriptor = `${directory}/${DESCRIPTOR_FILE}`;
  let foundBinary = false;
  let foundDescriptor = false;
  await new Promise<void>((resolve, reject) => {
    zip.on("error", reject);
    zip.on("end", () => resolve());
    zip.on("entry", (entry: Entry) => {
      const target = entry.fileName === binaryEntry ? binary : !foundDescriptor && entry.fileName.endsWith(`/${DESCRIPTOR_FILE}`) ? descriptor : undefined;
      if (target === undefined) {
        zip.readEntry();
        return;
      }
      if (target === binary) foundBinary = true;
      else foundDescriptor = true;
      zip.openReadStream(entry, (error, stream) => {
        if (error) {
          reject(error);
          return;
        }
        pipeline(stream, createWriteStream(target, { flags: "wx", mode: target === binary ? 0o755 : 0o644 }))
          .then(() => zip.readEntry())
          .catch(reject);
      });
    });
    zip.readEntry();
  });
  if (!foundBinary) throw new PackageIndexError(`the wheel has no ${binaryEntry}; it is not a google-antigravity wheel for this platform`);
  return { binary, descriptor: foundDescriptor ? descriptor : undefined };
}
