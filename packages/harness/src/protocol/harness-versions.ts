/*
 * The harness releases this client knows, and how their wire protocol is grouped into dialects
 * (docs/protocol.md, "Versions"). Every field and enum name of the schemas in `messages.ts` says
 * in which release it appeared or went away, so a strict schema can be built for any release here.
 */

/** Every google-antigravity release whose wire protocol this package models, oldest first. */
export const KNOWN_HARNESS_VERSIONS = [
  "0.1.8",
  "0.1.9",
  "0.1.10",
  "0.1.11",
  "0.1.12",
  "0.1.13",
  "0.1.14",
  "0.1.15",
  "0.1.16",
  "0.1.17",
  "0.1.18",
  "0.1.19",
  "0.1.20",
  "0.1.21",
] as const;

/** A release in `KNOWN_HARNESS_VERSIONS`. */
export type KnownHarnessVersion = (typeof KNOWN_HARNESS_VERSIONS)[number];

/** The newest release this package models; a client that cannot tell its harness's version speaks this one. */
export const NEWEST_KNOWN_HARNESS_VERSION: KnownHarnessVersion = "0.1.21";

/**
 * The releases where what a client sends changed shape, each the first release of its dialect:
 * 0.1.8 (`STATE_IDLE`, usage beside the event), 0.1.10 (usage updates, policies), 0.1.11 (turn input
 * as `userInput{parts}`, `agentBehavior`, budgets), 0.1.17 (pre-tool edits as a `modifiedArgs`
 * Struct), 0.1.18 (`SystemInstructionTemplate.name`), 0.1.21 (workflows, prompt overrides, inline skills).
 */
export const PROTOCOL_DIALECTS = ["0.1.8", "0.1.10", "0.1.11", "0.1.17", "0.1.18", "0.1.21"] as const;

/** The first release of a dialect. */
export type ProtocolDialect = (typeof PROTOCOL_DIALECTS)[number];

/** A version's numeric parts, or undefined when it is not `major.minor.patch` (a suffix such as `rc1` is ignored). */
/**
 * Parsed versions, by string: the strict checker compares the release with every field's range on
 * every frame, so the same few strings (the known releases, the one in use) are parsed again and
 * again. Bounded, since a version may come from outside (an env variable, a wheel's folder name).
 */
const parsedVersions = new Map<string, readonly [number, number, number] | undefined>();
const maxParsedVersions = 256;

function versionParts(version: string): readonly [number, number, number] | undefined {
  if (parsedVersions.has(version)) return parsedVersions.get(version);
  const match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version.trim());
  const parts = match === null ? undefined : ([Number(match[1]), Number(match[2]), Number(match[3])] as const);
  if (parsedVersions.size >= maxParsedVersions) parsedVersions.clear();
  parsedVersions.set(version, parts);
  return parts;
}

/** True for a `major.minor.patch` version string. */
export function isHarnessVersion(version: string): boolean {
  return versionParts(version) !== undefined;
}

/**
 * Orders two versions: negative when `left` is older, 0 when equal, positive when newer.
 * Throws a TypeError for a string that is not `major.minor.patch`.
 *
 * @example
 * compareHarnessVersions("0.1.9", "0.1.10"); // < 0
 */
export function compareHarnessVersions(left: string, right: string): number {
  const a = versionParts(left);
  const b = versionParts(right);
  if (a === undefined || b === undefined) throw new TypeError(`not a harness version: ${a === undefined ? left : right}`);
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/**
 * The known release whose protocol a harness of `version` speaks: the version itself when known,
 * the newest known for anything newer, the oldest known for anything older.
 *
 * @example
 * protocolVersionFor("0.1.22"); // "0.1.21"
 */
export function protocolVersionFor(version: string): KnownHarnessVersion {
  let chosen: KnownHarnessVersion = KNOWN_HARNESS_VERSIONS[0];
  for (const known of KNOWN_HARNESS_VERSIONS) if (compareHarnessVersions(known, version) <= 0) chosen = known;
  return chosen;
}

/**
 * The dialect a release belongs to: the newest dialect that started at or before it.
 *
 * @example
 * dialectOf("0.1.14"); // "0.1.11"
 */
export function dialectOf(version: string): ProtocolDialect {
  let chosen: ProtocolDialect = PROTOCOL_DIALECTS[0];
  for (const dialect of PROTOCOL_DIALECTS) if (compareHarnessVersions(dialect, version) <= 0) chosen = dialect;
  return chosen;
}

/** When a field or enum name exists: from `since` (inclusive) until `until` (exclusive). */
export interface VersionRange {
  readonly since?: string | undefined;
  readonly until?: string | undefined;
}

/** True when `version` falls in the range. */
export function inVersionRange(version: string, range: VersionRange): boolean {
  if (range.since !== undefined && compareHarnessVersions(version, range.since) < 0) return false;
  if (range.until !== undefined && compareHarnessVersions(version, range.until) >= 0) return false;
  return true;
}

/**
 * The text model the official SDK of a release picks when none is given: gemini-3.6-flash up to
 * 0.1.10, gemini-3.7-flash from 0.1.11, gemini-3.8-flash from 0.1.16.
 *
 * @example
 * defaultModelFor("0.1.18"); // "gemini-3.8-flash"
 */
export function defaultModelFor(version: string): string {
  if (compareHarnessVersions(version, "0.1.16") >= 0) return "gemini-3.8-flash";
  if (compareHarnessVersions(version, "0.1.11") >= 0) return "gemini-3.7-flash";
  return "gemini-3.6-flash";
}
