import {
  compareHarnessVersions,
  KNOWN_HARNESS_VERSIONS,
  NEWEST_KNOWN_HARNESS_VERSION,
  type KnownHarnessVersion,
} from "@ag-ui-antigravity/harness/protocol";
import { EmulatorError } from "../errors/emulator-error.js";

/**
 * The release each behaviour the emulator models first appeared in (docs/protocol.md, "Versions";
 * the field-level history is in the schemas of `@ag-ui-antigravity/harness/protocol`). A profile
 * has a feature when its release is that one or newer. A new harness release that adds behaviour
 * adds its features here, with that release.
 */
const featureSince = {
  /** Trajectory state 2 is named STATE_FULLY_IDLE (STATE_IDLE before). */
  fullyIdleName: "0.1.9",
  /** Usage travels as `usageUpdate` events (before: a `usageMetadata` sibling of the payload). */
  usageUpdates: "0.1.10",
  /** `policyConfig`, policy decision requests. */
  policyEngine: "0.1.10",
  /** `callId` in the tool hooks' arguments. */
  hookCallIds: "0.1.10",
  /** `cumulativeUsage` / `trajectoryUsage` in the init response. */
  initUsage: "0.1.10",
  /** `serviceTier` in UsageMetadata. */
  serviceTier: "0.1.10",
  /** Turn input is `userInput{parts}`; `agentBehavior`; budgets and stop reasons; subagent parent ids and depth. */
  turnInputParts: "0.1.11",
  agentBehavior: "0.1.11",
  budgets: "0.1.11",
  subagentLinks: "0.1.11",
  /** Per-modality token counts in UsageMetadata. */
  modalityUsage: "0.1.12",
  /** `trajectoryId` / `stepIndex` in the tool hooks' arguments. */
  toolHookSteps: "0.1.13",
  /** The ON_COMPACTION hook; `trajectoryId` in the turn hooks' arguments; the schedule and manage_task tools. */
  compactionHook: "0.1.14",
  turnHookTrajectory: "0.1.14",
  taskTools: "0.1.14",
  /** The STOP hook. */
  stopHook: "0.1.16",
  /** Tool arguments as a genai.Struct (without `argumentsJson`), `modifiedArgs`, `ToolCall.trajectoryId`, `sandboxStatus`. */
  structArguments: "0.1.17",
  toolCallTrajectory: "0.1.17",
  sandboxStatus: "0.1.17",
  /** `skillsConfig` and skill-lookup steps. */
  skills: "0.1.19",
  /** `errorCode` beside a trajectory's `error`. */
  errorCodes: "0.1.20",
  /** STATE_WAITING_FOR_SUBAGENTS; the run_workflow tool. */
  waitingForSubagents: "0.1.21",
  runWorkflow: "0.1.21",
} as const satisfies Record<string, KnownHarnessVersion>;

/** A behaviour that only some harness releases have. */
export type HarnessFeature = keyof typeof featureSince;

/**
 * The harness release the emulator plays for the whole process: what it accepts (each frame is
 * checked against that release's protocol) and what it sends. The init frame is read before a
 * scenario is chosen, so no scenario can change it.
 */
export interface VersionProfile {
  readonly version: KnownHarnessVersion;
  /** Whether this release has the behaviour. */
  has(feature: HarnessFeature): boolean;
  /** The name of trajectory state 2 in this release. */
  readonly idleState: "STATE_FULLY_IDLE" | "STATE_IDLE";
}

/** The release played when none is asked for: the newest the protocol package describes. */
export const defaultHarnessVersion: KnownHarnessVersion = NEWEST_KNOWN_HARNESS_VERSION;

function isKnownVersion(version: string): version is KnownHarnessVersion {
  return (KNOWN_HARNESS_VERSIONS as readonly string[]).includes(version);
}

/**
 * The profile of a known harness release. An unknown version is refused rather than mapped to a
 * neighbour: playing a release the emulator does not know would be kinder than that release.
 */
export function versionProfile(version: string = defaultHarnessVersion): VersionProfile {
  const trimmed = version.trim();
  if (!isKnownVersion(trimmed)) {
    throw new EmulatorError("CONFIG_INVALID", `unknown harness version "${version}": the emulator plays ${KNOWN_HARNESS_VERSIONS.join(", ")}`);
  }
  const has = (feature: HarnessFeature): boolean => compareHarnessVersions(trimmed, featureSince[feature]) >= 0;
  return { version: trimmed, has, idleState: has("fullyIdleName") ? "STATE_FULLY_IDLE" : "STATE_IDLE" };
}
