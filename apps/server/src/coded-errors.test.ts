// The server's own errors are on the workspace's one coded-error base: a code to match on, the
// standard cause, and a brand that `isInstance` recognises.
import { CodedError } from "@ag-ui-antigravity/foundation";
import { describe, expect, it } from "vitest";
import { AuthTokensError, parseAuthTokens } from "./auth/bearer-tokens.js";
import { HarnessChoiceError, parseHarnessPreference } from "./harness/harness-choice.js";
import { readServerEnvironment, ServerEnvironmentError } from "./server-environment.js";
import { parsePlanDecision, PlanDecisionError } from "./tools/plan-execution-tool.js";
import { sandboxedPath, WriteFileError } from "./tools/write-file-tool.js";

function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error("nothing was thrown");
}

describe("the server's errors", () => {
  it.each([
    ["AuthTokensError", (error: unknown) => AuthTokensError.isInstance(error), "AUTH_TOKENS_INVALID", () => parseAuthTokens("alice")],
    ["HarnessChoiceError", (error: unknown) => HarnessChoiceError.isInstance(error), "HARNESS_UNAVAILABLE", () => parseHarnessPreference("gemini")],
    ["ServerEnvironmentError", (error: unknown) => ServerEnvironmentError.isInstance(error), "ENVIRONMENT_INVALID", () => readServerEnvironment({ PORT: "http" })],
    ["PlanDecisionError", (error: unknown) => PlanDecisionError.isInstance(error), "INVALID_PLAN_DECISION", () => parsePlanDecision("not json")],
    ["WriteFileError", (error: unknown) => WriteFileError.isInstance(error), "PATH_OUTSIDE_SANDBOX", () => sandboxedPath("/tmp/sandbox", "../outside.txt")],
  ] as const)("%s has its name and code and is a CodedError by brand", (name, isInstance, code, action) => {
    const error = thrownBy(action);
    expect(isInstance(error)).toBe(true);
    expect(CodedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ name, code });
  });

  it("keeps the AUTH_TOKENS refusal as the cause of the environment error", () => {
    const error = thrownBy(() => readServerEnvironment({ AUTH_TOKENS: "alice:short" }));
    expect(ServerEnvironmentError.isInstance(error)).toBe(true);
    expect(AuthTokensError.isInstance((error as Error).cause)).toBe(true);
  });
});
