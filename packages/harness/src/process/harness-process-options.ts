import type { Logger } from "@ag-ui-antigravity/foundation";
import type { DriftEntry } from "../protocol/drift.js";
import type { WireInspector } from "../observability/wire-record.js";
import type { FindHarnessBinaryOptions } from "./find-harness-binary.js";

/** How `HarnessProcess.start` runs localharness: binary and version, environment, storage, port, logging, recording. */
export interface HarnessProcessOptions {
  /** The localharness binary (or the emulator's `bin.js`, run with this Node). Discovered when absent. */
  binaryPath?: string;
  /**
   * The harness's version (e.g. "0.1.18"), which decides the protocol spoken. Default, in order:
   * `ANTIGRAVITY_HARNESS_VERSION` (in `env`, then the environment), the installed wheel's version
   * beside the binary, the emulator's `ANTIGRAVITY_EMULATOR_HARNESS_VERSION`, else the newest release
   * this client knows. A pinned version is passed on to the emulator.
   */
  harnessVersion?: string;
  /** How to discover the binary when `binaryPath` is absent. */
  discovery?: Omit<FindHarnessBinaryOptions, "signal">;
  /**
   * Where the harness persists trajectories; reuse it (with a conversationId) to resume. Default: a
   * fresh temporary directory that this process owns and removes at close.
   */
  storageDirectory?: string;
  /**
   * Extra environment: sent in InputConfig.env and set on the child over a minimal allow-listed
   * environment (PATH, HOME, TMPDIR, LANG, ...). GEMINI_API_KEY reaches the child only if put here.
   */
  env?: Record<string, string>;
  /** More variable names to inherit from process.env beyond the allow-list. */
  inheritEnv?: readonly string[];
  /** WebSocket bind address (harness default `localhost`). */
  bindAddress?: string;
  /** WebSocket port (default 0: the harness picks a free one). */
  port?: number;
  /**
   * Where the process and its conversations log (pino's argument order: a pino logger fits). Levels
   * it lacks are skipped and a throw is ignored; default: nothing is logged.
   */
  logger?: Partial<Logger>;
  /** Observes every wire message, redacted. */
  inspector?: WireInspector;
  /** Overrides the ANTIGRAVITY_WIRE environment variable. */
  wire?: string;
  /**
   * Records the session (every frame, both directions, with timing; secrets blanked) as JSONL to
   * this file, for replay by the emulator. Overrides the ANTIGRAVITY_WIRE_RECORD environment
   * variable; `false` turns recording off whatever the environment says.
   */
  record?: string | false;
  /**
   * Sees every drift observation (unknown field, unknown enum value, unparsable frame) as it
   * happens, with the harness version, e.g. to count it in metrics. Must not throw.
   */
  onDrift?: (entry: DriftEntry, context: { harnessVersion: string }) => void;
  /** Aborts the start (the child is killed). */
  signal?: AbortSignal;
  /** Bound on spawn + handshake (default 60 s). */
  handshakeTimeoutMs?: number;
  /** How many stderr lines to keep for error messages (default 40). */
  stderrLines?: number;
}

/** How `HarnessProcess.close` ends the process: how long a graceful exit may take. */
export interface HarnessProcessCloseOptions {
  /** How long to wait for a graceful exit after stdin EOF before SIGTERM (default 5 s). */
  gracePeriodMs?: number;
}

/** How the harness process exited: its exit code, or the signal that ended it. */
export interface HarnessProcessExit {
  /** The exit code; null when a signal ended the process (or it never started). */
  code: number | null;
  /** The signal that ended the process (e.g. the SIGTERM of `close`); null when it exited on its own. */
  signal: NodeJS.Signals | null;
}
