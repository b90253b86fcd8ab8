import { describe, expect, it } from "vitest";
import { DEFAULT_RUN_ERROR_STATUSES, httpStatusForRunErrorCode } from "./run-error-status.js";

describe("httpStatusForRunErrorCode", () => {
  it.each([
    ["INVALID_INPUT", 400],
    ["INVALID_TOOL_SCHEMA", 400],
    ["UNAUTHENTICATED", 401],
    ["FORBIDDEN", 403],
    ["NOT_FOUND", 404],
    ["THREAD_BUSY", 409],
    ["RATE_LIMITED", 429],
    ["CAPACITY_EXHAUSTED", 503],
  ])("maps %s to %i", (code, status) => {
    expect(httpStatusForRunErrorCode(code)).toBe(status);
  });

  it("covers exactly the documented table", () => {
    expect(DEFAULT_RUN_ERROR_STATUSES).toEqual({
      INVALID_INPUT: 400,
      INVALID_TOOL_SCHEMA: 400,
      AMBIGUOUS_ANSWER: 400,
      UNKNOWN_INTERRUPT: 400,
      INVALID_ANSWER: 400,
      ANSWER_FOR_FRONTEND_TOOL: 400,
      UNAUTHENTICATED: 401,
      FORBIDDEN: 403,
      NOT_FOUND: 404,
      THREAD_BUSY: 409,
      INTERRUPTS_PENDING: 409,
      HISTORY_DIVERGED: 409,
      INTERRUPT_EXPIRED: 410,
      RATE_LIMITED: 429,
      CAPACITY_EXHAUSTED: 503,
      SESSION_LIMIT: 503,
      THREAD_STORE_UNAVAILABLE: 503,
      THREAD_ELSEWHERE: 503,
      HARNESS_NOT_FOUND: 503,
      SPAWN_FAILED: 503,
      SPAWN_BACKOFF: 503,
      HANDSHAKE_FAILED: 503,
      CONFIG_INVALID: 503,
      POOL_CLOSED: 503,
      AGENT_CLOSED: 503,
    });
    expect(Object.isFrozen(DEFAULT_RUN_ERROR_STATUSES)).toBe(true);
  });

  it("leaves other codes, a missing code and inherited property names to be streamed", () => {
    expect(httpStatusForRunErrorCode("INTERNAL_ERROR")).toBeUndefined();
    expect(httpStatusForRunErrorCode(undefined)).toBeUndefined();
    expect(httpStatusForRunErrorCode("toString")).toBeUndefined();
    expect(httpStatusForRunErrorCode("__proto__")).toBeUndefined();
  });

  it("lets overrides add, replace and remove entries", () => {
    const overrides = { QUOTA: 429, THREAD_BUSY: 423, FORBIDDEN: null };
    expect(httpStatusForRunErrorCode("QUOTA", overrides)).toBe(429);
    expect(httpStatusForRunErrorCode("THREAD_BUSY", overrides)).toBe(423);
    expect(httpStatusForRunErrorCode("FORBIDDEN", overrides)).toBeUndefined();
    expect(httpStatusForRunErrorCode("INVALID_INPUT", overrides)).toBe(400);
  });
});
