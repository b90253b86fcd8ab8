import { describe, expect, it } from "vitest";
import { readServerEnvironment, ServerEnvironmentError } from "./server-environment.js";

describe("readServerEnvironment", () => {
  it("defaults to 127.0.0.1:8027 at info level", () => {
    expect(readServerEnvironment({})).toEqual({ port: 8027, host: "127.0.0.1", logLevel: "info", harnessPreference: undefined, dojoDistDirectory: undefined, taskStepDelayMs: 700, saveDirectory: undefined, replicaId: undefined });
  });

  it("reads PORT, HOST, LOG_LEVEL, ANTIGRAVITY_DEMO_HARNESS and DOJO_DIST_DIR", () => {
    expect(readServerEnvironment({ PORT: "0", HOST: "0.0.0.0", LOG_LEVEL: "debug", ANTIGRAVITY_DEMO_HARNESS: "real", DOJO_DIST_DIR: "/srv/dojo", DEMO_TASK_STEP_MS: "50" })).toEqual({
      port: 0,
      host: "0.0.0.0",
      logLevel: "debug",
      harnessPreference: "real",
      dojoDistDirectory: "/srv/dojo",
      taskStepDelayMs: 50,
      saveDirectory: undefined,
      replicaId: undefined,
    });
  });

  it("reads the shared save dir and the replica id of a multi-replica deployment, and refuses unusable ones", () => {
    expect(readServerEnvironment({ ANTIGRAVITY_SAVE_DIR: "/var/lib/agents", ANTIGRAVITY_REPLICA_ID: "replica-2" })).toMatchObject({
      saveDirectory: "/var/lib/agents",
      replicaId: "replica-2",
    });
    expect(() => readServerEnvironment({ ANTIGRAVITY_SAVE_DIR: "relative/dir" })).toThrow(ServerEnvironmentError);
    expect(() => readServerEnvironment({ ANTIGRAVITY_REPLICA_ID: "two words" })).toThrow(ServerEnvironmentError);
  });

  it("refuses a PORT that is not a port, and a step delay that is not a duration", () => {
    for (const port of ["http", "70000", "-1", "80.5"]) expect(() => readServerEnvironment({ PORT: port })).toThrow(ServerEnvironmentError);
    for (const delay of ["fast", "-5", "1e9"]) expect(() => readServerEnvironment({ DEMO_TASK_STEP_MS: delay })).toThrow(ServerEnvironmentError);
  });
});
