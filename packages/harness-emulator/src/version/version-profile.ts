/**
 * The wire dialect a harness version speaks. Only the differences a client can observe are modelled
 * (docs/protocol.md, "Versions"): the idle state's name, how usage travels, and the 0.1.10-only fields.
 */
export interface VersionProfile {
  readonly version: "0.1.10" | "0.1.8";
  /** Name of trajectory state 2: STATE_FULLY_IDLE since 0.1.9, STATE_IDLE before. */
  readonly idleState: "STATE_FULLY_IDLE" | "STATE_IDLE";
  /** 0.1.10 sends `usageUpdate` events; older versions attach `usageMetadata` to an OutputEvent. */
  readonly usageTransport: "usageUpdate" | "usageMetadata";
  /** `policyConfig` and policyDecisionRequest/Response exist (0.1.10). */
  readonly policyEngine: boolean;
  /** `callId` in Pre/Post/OnToolError args (0.1.10). */
  readonly hookCallIds: boolean;
  /** `cumulativeUsage` / `trajectoryUsage` in the init response (0.1.10). */
  readonly initUsage: boolean;
  /** `serviceTier` in UsageMetadata (0.1.10). */
  readonly serviceTier: boolean;
}

const profiles: Record<VersionProfile["version"], VersionProfile> = {
  "0.1.10": {
    version: "0.1.10",
    idleState: "STATE_FULLY_IDLE",
    usageTransport: "usageUpdate",
    policyEngine: true,
    hookCallIds: true,
    initUsage: true,
    serviceTier: true,
  },
  "0.1.8": {
    version: "0.1.8",
    idleState: "STATE_IDLE",
    usageTransport: "usageMetadata",
    policyEngine: false,
    hookCallIds: false,
    initUsage: false,
    serviceTier: false,
  },
};

export function versionProfile(version: string): VersionProfile {
  return version === "0.1.8" ? profiles["0.1.8"] : profiles["0.1.10"];
}
