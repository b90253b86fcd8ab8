import { randomBytes } from "node:crypto";

/** Makes ids and timestamps; the deterministic variant makes runs repeatable for golden tests. */
export interface IdSource {
  /** A 32-lowercase-hex id, the shape the harness uses for cascade and trajectory ids. */
  hexId(): string;
  /** An opaque id for tool calls, hook and policy requests. */
  requestId(kind: string): string;
  /** Microseconds since the epoch, as the envelope's `timestampMicros`. */
  nowMicros(): bigint;
}

export function createIdSource(options: { deterministic: boolean }): IdSource {
  if (!options.deterministic) {
    return {
      hexId: () => randomBytes(16).toString("hex"),
      requestId: (kind) => `${kind}_${randomBytes(6).toString("hex")}`,
      nowMicros: () => BigInt(Date.now()) * 1000n,
    };
  }
  let counter = 0;
  let clock = 1_700_000_000_000_000n;
  return {
    hexId: () => {
      counter += 1;
      return counter.toString(16).padStart(32, "0");
    },
    requestId: (kind) => {
      counter += 1;
      return `${kind}_${counter}`;
    },
    nowMicros: () => {
      clock += 1000n;
      return clock;
    },
  };
}
