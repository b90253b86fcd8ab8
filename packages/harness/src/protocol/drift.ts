/** One observation of something the schema did not know. */
export type DriftEntry =
  /** An enum value that is not a known name (an unknown name, or any number). */
  | { kind: "enum-value"; path: string; value: string | number }
  /** A field name the message's schema does not declare. */
  | { kind: "unknown-field"; path: string; key: string }
  /** A whole message that could not be used (not JSON, or not the message it should be); `reason` says which part. */
  | { kind: "invalid-message"; path: string; reason: string }
  /** A harness newer than every release this client knows (`value`: its version); it is spoken to as the newest known. */
  | { kind: "harness-version"; path: string; value: string };

/**
 * How often one kind of protocol drift was seen at one place (an enum value, a field, a refused
 * message).
 */
export interface DriftCount {
  /** What was seen (see `DriftEntry`): an unknown enum value, an unknown field, an unusable message, a newer harness. */
  kind: DriftEntry["kind"];
  /**
   * Where: the dotted path from the message (`OutputEvent.stepUpdate.state`, `[]` for an array
   * element); for an unknown field, the message holding it; `harness` for a harness version.
   */
  path: string;
  /** The enum value (enum-value), the field name (unknown-field), the reason (invalid-message) or the version (harness-version). */
  value: string | number;
  /** How many times it was seen since the registry was made (or reset). */
  count: number;
}

/**
 * What a harness process sent that this client does not know, counted: read it to spot a new harness
 * release.
 */
export interface DriftReport {
  /** Enum values that are not a known name (an unknown name, or any number), by path and value. */
  enumValues: DriftCount[];
  /** Field names a message's schema does not declare, by message path and name; their values are kept. */
  unknownFields: DriftCount[];
  /** Messages dropped because they did not parse; the client logs each and carries on. */
  invalidMessages: DriftCount[];
  /** Harness versions newer than every release this client knows. */
  harnessVersions: DriftCount[];
  /** Sum of all counts. */
  total: number;
}

/**
 * Counts protocol drift: what a newer (or older) harness sent that this schema does not know.
 * One registry per owner (a client, an emulator, a test); parse functions record into the one
 * they are given.
 *
 * @example
 * const drift = new DriftRegistry();
 * parseOutputEvent({ stepUpdate: { state: "STATE_NEW" } }, { drift });
 * drift.snapshot().enumValues; // [{ kind: "enum-value", path: "OutputEvent.stepUpdate.state", value: "STATE_NEW", count: 1 }]
 */
export class DriftRegistry {
  readonly #counts = new Map<string, DriftCount>();
  readonly #onRecord: ((entry: DriftEntry, firstSeen: boolean) => void) | undefined;

  /** `onRecord` sees every observation as it is recorded, and whether its kind is new to this registry; it must not throw. */
  constructor(options: { onRecord?: (entry: DriftEntry, firstSeen: boolean) => void } = {}) {
    this.#onRecord = options.onRecord;
  }

  record(entry: DriftEntry): void {
    const value = entry.kind === "unknown-field" ? entry.key : entry.kind === "invalid-message" ? entry.reason : entry.value;
    const key = JSON.stringify([entry.kind, entry.path, typeof value, value]);
    const existing = this.#counts.get(key);
    if (existing === undefined) {
      this.#counts.set(key, { kind: entry.kind, path: entry.path, value, count: 1 });
    } else {
      existing.count += 1;
    }
    if (this.#onRecord !== undefined) {
      try {
        this.#onRecord(entry, existing === undefined);
      } catch {
        // An observer's failure must not break parsing.
      }
    }
  }

  snapshot(): DriftReport {
    const enumValues: DriftCount[] = [];
    const unknownFields: DriftCount[] = [];
    const invalidMessages: DriftCount[] = [];
    const harnessVersions: DriftCount[] = [];
    const lists = { "enum-value": enumValues, "unknown-field": unknownFields, "invalid-message": invalidMessages, "harness-version": harnessVersions };
    let total = 0;
    for (const count of this.#counts.values()) {
      lists[count.kind].push({ ...count });
      total += count.count;
    }
    return { enumValues, unknownFields, invalidMessages, harnessVersions, total };
  }

  reset(): void {
    this.#counts.clear();
  }

  get isEmpty(): boolean {
    return this.#counts.size === 0;
  }
}
