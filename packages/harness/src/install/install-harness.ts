import { mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { downloadWheel, type DownloadProgress } from "./download-wheel.js";
import { extractHarnessFiles } from "./extract-wheel.js";
import { BINARY_FILE, DESCRIPTOR_FILE, harnessCacheDirectory, INSTALL_RECORD_FILE, installedVersions, type InstallRecord } from "./harness-cache.js";
import { filesOfRelease, indexUrlFrom, listProjectFiles, newestRelease, PackageIndexError, PROJECT_NAME } from "./package-index.js";
import { parseWheelName, pickPlatformWheel, platformTagPatterns } from "./platform-wheel.js";

/*
 * `antigravity-harness install`: the harness binary straight from the google-antigravity wheel, no
 * Python needed. Safe to run twice, or from two processes at once: each works in a private temporary
 * folder and renames it into place whole, so a version folder that exists is complete and a killed
 * install leaves no executable anyone would find.
 */

export interface InstallHarnessOptions {
  /** A release such as "0.1.21"; default the newest final release on the index. */
  version?: string | undefined;
  /** A PyPI-compatible simple index; default PIP_INDEX_URL, else the public index. */
  indexUrl?: string | undefined;
  /** Default `harnessCacheDirectory()`. */
  cacheDirectory?: string | undefined;
  env?: Readonly<Record<string, string | undefined>> | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: DownloadProgress) => void) | undefined;
  /** For tests: the wheel platform to look for instead of this machine's. */
  platform?: { platform: NodeJS.Platform; arch: string } | undefined;
}

export interface InstallHarnessResult {
  status: "installed" | "already-installed";
  version: string;
  binary: string;
  /** The wheel's protocol descriptor module, when it ships one. */
  descriptor: string | undefined;
  /** Absent when nothing was downloaded. */
  wheel?: string;
}

/** Temporary folders of installs that died this long ago are cleared by the next install. */
const STALE_TEMPORARY_MS = 60 * 60 * 1000;

/** Downloads, checks and unpacks one release's harness into the cache. Throws PackageIndexError with a sentence for the user. */
export async function installHarness(options: InstallHarnessOptions = {}): Promise<InstallHarnessResult> {
  const env = options.env ?? process.env;
  const cacheDirectory = options.cacheDirectory ?? harnessCacheDirectory(env);
  const indexUrl = indexUrlFrom(options.indexUrl, env);
  if (options.version !== undefined && installedVersions(cacheDirectory).includes(options.version)) return alreadyInstalled(cacheDirectory, options.version);
  const { EnvHttpProxyAgent } = await import("undici");
  const dispatcher = new EnvHttpProxyAgent();
  try {
    const files = await listProjectFiles({ indexUrl, dispatcher, signal: options.signal });
    const version = options.version ?? newestRelease(files);
    if (version === undefined) throw new PackageIndexError(`the package index at ${indexUrl} lists no ${PROJECT_NAME} wheel`);
    if (installedVersions(cacheDirectory).includes(version)) return alreadyInstalled(cacheDirectory, version);
    const release = filesOfRelease(files, version);
    if (release.length === 0) {
      const known = [...new Set(files.map((file) => parseWheelName(file.filename)?.version).filter((value) => value !== undefined))].join(", ");
      throw new PackageIndexError(`${PROJECT_NAME} ${version} is not on the package index at ${indexUrl}${known ? ` (it has ${known})` : ""}`);
    }
    const target = options.platform ?? { platform: process.platform, arch: process.arch };
    const wheel = pickPlatformWheel(release, platformTagPatterns(target.platform, target.arch));
    if (wheel === undefined) {
      throw new PackageIndexError(`${PROJECT_NAME} ${version} has no wheel for ${target.platform} ${target.arch} (it has ${release.map((file) => file.filename).join(", ")})`);
    }
    await mkdir(cacheDirectory, { recursive: true });
    await clearStaleTemporaries(cacheDirectory);
    const temporary = await mkdtemp(join(cacheDirectory, `.${version}.tmp-`));
    try {
      const wheelPath = join(temporary, wheel.filename);
      await downloadWheel(wheel, wheelPath, { dispatcher, signal: options.signal, onProgress: options.onProgress });
      const extracted = await extractHarnessFiles(wheelPath, temporary);
      await rm(wheelPath);
      const record: InstallRecord = { version, wheel: wheel.filename, sha256: wheel.sha256 ?? "", indexUrl, installedAt: new Date().toISOString() };
      await writeFile(join(temporary, INSTALL_RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`);
      const final = join(cacheDirectory, version);
      try {
        await rename(temporary, final);
      } catch (error) {
        // Another install of the same version finished first: its folder is as good as ours.
        if (isCode(error, "EEXIST", "ENOTEMPTY", "EPERM")) return alreadyInstalled(cacheDirectory, version);
        throw error;
      }
      return {
        status: "installed",
        version,
        binary: join(final, BINARY_FILE),
        descriptor: extracted.descriptor === undefined ? undefined : join(final, DESCRIPTOR_FILE),
        wheel: wheel.filename,
      };
    } finally {
      await rm(temporary, { recursive: true, force: true });
    }
  } finally {
    await dispatcher.close();
  }
}

async function alreadyInstalled(cacheDirectory: string, version: string): Promise<InstallHarnessResult> {
  const directory = join(cacheDirectory, version);
  const descriptor = join(directory, DESCRIPTOR_FILE);
  const hasDescriptor = await stat(descriptor).then(
    () => true,
    () => false,
  );
  return { status: "already-installed", version, binary: join(directory, BINARY_FILE), descriptor: hasDescriptor ? descriptor : undefined };
}

async function clearStaleTemporaries(cacheDirectory: string): Promise<void> {
  for (const entry of await readdir(cacheDirectory).catch(() => [] as string[])) {
    if (!/^\..+\.tmp-/.test(entry)) continue;
    const path = join(cacheDirectory, entry);
    const info = await stat(path).catch(() => undefined);
    if (info !== undefined && Date.now() - info.mtimeMs > STALE_TEMPORARY_MS) await rm(path, { recursive: true, force: true });
  }
}

function isCode(error: unknown, ...codes: string[]): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && codes.includes(code);
}
