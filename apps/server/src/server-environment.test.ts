import { describe, expect, it } from "vitest";
import { readServerEnvironment, ServerEnvironmentError } from "./server-environment.js";

describe("readServerEnvironment", () => {
  it("defaults to 127.0.0.1:8027 at info level", () => {
    expect(readServerEnvironment({})).toEqual({ port: 8027, host: "127.0.0.1", logLevel: "info", harnessPreference: undefined, dojoDistDirectory: undefined });
  });

  it("reads PORT, HOST, LOG_LEVEL, ANTIGRAVITY_DEMO_HARNESS and DOJO_DIST_DIR", () => {
    expect(readServerEnvironment({ PORT: "0", HOST: "0.0.0.0", LOG_LEVEL: "debug", ANTIGRAVITY_DEMO_HARNESS: "real", DOJO_DIST_DIR: "/srv/dojo" })).toEqual({
      port: 0,
      host: "0.0.0.0",
      logLevel: "debug",
      harnessPreference: "real",
      dojoDistDirectory: "/srv/dojo",
    });
  });

  it("refuses a PORT that is not a port", () => {
    for (const port of ["http", "70000", "-1", "80.5"]) expect(() => readServerEnvironment({ PORT: port })).toThrow(ServerEnvironmentError);
  });
});
