import type { Dispatcher } from "undici";
import { compareHarnessVersions } from "../protocol/harness-versions.js";
import { parseWheelName, type IndexFile } from "./platform-wheel.js";

/*
 * Reads a PyPI-compatible "simple" index (PEP 503 HTML, or PEP 691 JSON when the index offers it):
 * the files of the google-antigravity project, each with its sha256. pip's own index setting
 * (PIP_INDEX_URL) is honoured; proxies come from the environment (HTTPS_PROXY, NO_PROXY).
 */

export const PROJECT_NAME = "google-antigravity";
export const DEFAULT_INDEX_URL = "https://pypi.org/simple";

/** Why reading the index failed, in a sentence for the command line. */
export class PackageIndexError extends Error {
  override readonly name = "PackageIndexError";
}

export interface IndexOptions {
  indexUrl: string;
  dispatcher?: Dispatcher | undefined;
  signal?: AbortSignal | undefined;
}

/** The index to use: the one given, else PIP_INDEX_URL, else the public index. */
export function indexUrlFrom(given: string | undefined, env: Readonly<Record<string, string | undefined>> = process.env): string {
  return (given || env.PIP_INDEX_URL || DEFAULT_INDEX_URL).replace(/\/+$/, "");
}

/** Every file the index lists for the project, yanked ones left out. */
export async function listProjectFiles(options: IndexOptions): Promise<IndexFile[]> {
  const { fetch } = await import("undici");
  const pageUrl = `${options.indexUrl}/${PROJECT_NAME}/`;
  let response: Awaited<ReturnType<typeof fetch>>;
  try {
    response = await fetch(pageUrl, {
      headers: { accept: "application/vnd.pypi.simple.v1+json, text/html;q=0.1" },
      ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    throw new PackageIndexError(`cannot reach the package index at ${options.indexUrl}: ${reasonOf(error)}`);
  }
  if (response.status === 404) throw new PackageIndexError(`the package index at ${options.indexUrl} has no ${PROJECT_NAME} project`);
  if (!response.ok) throw new PackageIndexError(`the package index at ${options.indexUrl} answered HTTP ${response.status} for ${pageUrl}`);
  const type = response.headers.get("content-type") ?? "";
  const body = await response.text();
  const base = response.url || pageUrl;
  return type.includes("json") ? filesOfJsonPage(body, base) : filesOfHtmlPage(body, base);
}

/** The newest final release that has a wheel among `files` (a pre-release such as 0.1.23rc1 is skipped). */
export function newestRelease(files: readonly IndexFile[]): string | undefined {
  const versions = files.map((file) => parseWheelName(file.filename)?.version).filter((version): version is string => version !== undefined && /^\d+\.\d+\.\d+$/.test(version));
  return versions.sort((left, right) => compareHarnessVersions(right, left))[0];
}

/** The wheels of one release. */
export function filesOfRelease(files: readonly IndexFile[], version: string): IndexFile[] {
  return files.filter((file) => parseWheelName(file.filename)?.version === version);
}

function filesOfJsonPage(body: string, base: string): IndexFile[] {
  let page: { files?: { filename?: unknown; url?: unknown; hashes?: { sha256?: unknown }; yanked?: unknown }[] };
  try {
    page = JSON.parse(body) as typeof page;
  } catch {
    throw new PackageIndexError("the package index sent a JSON page that does not parse");
  }
  return (page.files ?? []).flatMap((file) => {
    if (typeof file.filename !== "string" || typeof file.url !== "string" || (file.yanked !== undefined && file.yanked !== false)) return [];
    return [{ filename: file.filename, url: new URL(file.url, base).href, sha256: typeof file.hashes?.sha256 === "string" ? file.hashes.sha256.toLowerCase() : undefined }];
  });
}

const anchor = /<a\s([^>]*)>([^<]*)<\/a>/gi;
const hrefOf = /\bhref\s*=\s*"([^"]*)"/i;

function filesOfHtmlPage(body: string, base: string): IndexFile[] {
  const files: IndexFile[] = [];
  for (const match of body.matchAll(anchor)) {
    const attributes = match[1] ?? "";
    const href = hrefOf.exec(attributes)?.[1];
    if (href === undefined || /\bdata-yanked\b/i.test(attributes)) continue;
    const url = new URL(decodeEntities(href), base);
    const sha256 = /^sha256=([0-9a-f]{64})$/i.exec(url.hash.slice(1))?.[1]?.toLowerCase();
    url.hash = "";
    files.push({ filename: decodeEntities((match[2] ?? "").trim()), url: url.href, sha256 });
  }
  return files;
}

function decodeEntities(text: string): string {
  return text.replace(/&amp;/g, "&").replace(/&#x2B;|&#43;/gi, "+").replace(/&quot;/g, '"');
}

function reasonOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = (cause as { code?: unknown } | undefined)?.code;
  const message = cause instanceof Error ? cause.message : String(cause);
  return typeof code === "string" && !message.includes(code) ? `${code} ${message}` : message;
}
