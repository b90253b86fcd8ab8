import { describe, expect, it } from "vitest";
import { readServerEnvironment, ServerEnvironmentError } from "./server-environment.js";

describe("readServerEnvironment", () => {
  it("defaults to 127.0.0.1:8027 at info level", () => {
    expect(readServerEnvironment({})).toEqual({ port: 8027, host: "127.0.0.1", logLevel: "info", harnessPreference: undefined, dojoDistDirectory: undefined, taskStepDelayMs: 700, clientLimits: true });
  });

  it("reads PORT, HOST, LOG_LEVEL, ANTIGRAVITY_DEMO_HARNESS and DOJO_DIST_DIR", () => {
    expect(readServerEnvironment({ PORT: "0", HOST: "0.0.0.0", LOG_LEVEL: "debug", ANTIGRAVITY_DEMO_HARNESS: "real", DOJO_DIST_DIR: "/srv/dojo", DEMO_TASK_STEP_MS: "50" })).toEqual({
      port: 0,
      host: "0.0.0.0",
      logLevel: "debug",
      harnessPreference: "real",
      dojoDistDirectory: "/srv/dojo",
      taskStepDelayMs: 50,
      clientLimits: true,
    });
  });

  it("reads SAVE_DIR, REDIS_URL and REPLICA_ID, and refuses a relative save dir or a URL that is not Redis's", () => {
    expect(readServerEnvironment({ SAVE_DIR: "/srv/state", REDIS_URL: "redis://127.0.0.1:6379", REPLICA_ID: "r1" })).toMatchObject({ saveDir: "/srv/state", redisUrl: "redis://127.0.0.1:6379", replicaId: "r1" });
    expect(() => readServerEnvironment({ SAVE_DIR: "state" })).toThrow(/SAVE_DIR/);
    // The replica id is also the x-ag-ui-antigravity-replica header.
    expect(() => readServerEnvironment({ REPLICA_ID: "two words\r\n" })).toThrow(/REPLICA_ID/);
    expect(readServerEnvironment({ REPLICA_TTL_MS: "3000" }).replicaTtlMs).toBe(3_000);
    for (const ttl of ["soon", "0", "1e9"]) expect(() => readServerEnvironment({ REPLICA_TTL_MS: ttl })).toThrow(/REPLICA_TTL_MS/);
    // The URL is not echoed: it may carry a password.
    expect(() => readServerEnvironment({ REDIS_URL: "http://user:secret@host" })).toThrow(/^REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL\.$/);
  });

  it("refuses a PORT that is not a port, and a step delay that is not a duration", () => {
    for (const port of ["http", "70000", "-1", "80.5"]) expect(() => readServerEnvironment({ PORT: port })).toThrow(ServerEnvironmentError);
    for (const delay of ["fast", "-5", "1e9"]) expect(() => readServerEnvironment({ DEMO_TASK_STEP_MS: delay })).toThrow(ServerEnvironmentError);
  });

  it("reads AUTH_TOKENS as bearer token → principal, and refuses a malformed one", () => {
    expect(readServerEnvironment({ AUTH_TOKENS: "alice:alice-token-0123456789" }).authTokens).toEqual(new Map([["alice-token-0123456789", "alice"]]));
    expect(readServerEnvironment({}).authTokens).toBeUndefined();
    expect(() => readServerEnvironment({ AUTH_TOKENS: "alice:short" })).toThrow(ServerEnvironmentError);
  });

  it("reads CLIENT_LIMITS (on by default) and TRUST_PROXY, and refuses anything else", () => {
    expect(readServerEnvironment({ CLIENT_LIMITS: "off" }).clientLimits).toBe(false);
    expect(() => readServerEnvironment({ CLIENT_LIMITS: "no" })).toThrow(/CLIENT_LIMITS/);
    expect(readServerEnvironment({ TRUST_PROXY: "loopback" }).trustProxy).toBe("loopback");
    expect(readServerEnvironment({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(readServerEnvironment({ TRUST_PROXY: "10.0.0.0/8, 127.0.0.1" }).trustProxy).toBe("10.0.0.0/8, 127.0.0.1");
    expect(() => readServerEnvironment({ TRUST_PROXY: "x;rm" })).toThrow(/TRUST_PROXY/);
  });
});
