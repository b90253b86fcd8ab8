import { CLIENT_ERROR_CODES, isClientErrorCode } from "@ag-ui-antigravity/foundation";
import { HarnessError, type HarnessErrorCode } from "@ag-ui-antigravity/harness";
import { HitlError, type HitlErrorCode } from "@ag-ui-antigravity/hitl";
import { PoolError, type PoolErrorCode } from "@ag-ui-antigravity/pool";
import { TranslatorError, type TranslatorErrorCode } from "@ag-ui-antigravity/translator";
import { describe, expect, it } from "vitest";
import { AgentError, type AgentErrorCode } from "../errors/agent-error.js";
import { toRunError } from "./run-error.js";
import { StepFailure } from "./step-failure.js";

// Every internal code, listed so the compiler fails when a package adds one and this test does not
// see it (`satisfies Record<Code, true>` demands each key, and no other).
const harnessCodes = Object.keys({
  HARNESS_NOT_FOUND: true, SPAWN_FAILED: true, HANDSHAKE_FAILED: true, INIT_FAILED: true, CONNECTION_CLOSED: true,
  CONFIG_INVALID: true, TURN_BUSY: true, TURN_FAILED: true, MCP_LOAD_FAILED: true, TIMEOUT: true, CANCELLED: true,
  PROTOCOL_INVALID_FRAME: true, PROTOCOL_FRAME_TOO_LARGE: true, PROTOCOL_INVALID_MESSAGE: true, PROTOCOL_SKEW: true,
  BUDGET_EXCEEDED: true, QUOTA_EXHAUSTED: true,
} satisfies Record<HarnessErrorCode, true>) as HarnessErrorCode[];
const poolCodes = Object.keys({
  POOL_CLOSED: true, ACQUIRE_ABORTED: true, PROCESS_DIED: true, SPAWN_FAILED: true, SPAWN_BACKOFF: true, OPEN_FAILED: true, CONFIG_INVALID: true,
  CAPACITY_EXHAUSTED: true,
} satisfies Record<PoolErrorCode, true>) as PoolErrorCode[];
const hitlCodes = Object.keys({
  INVALID_TOOL_SCHEMA: true, AMBIGUOUS_ANSWER: true, UNKNOWN_INTERRUPT: true, INVALID_ANSWER: true, ANSWER_FOR_FRONTEND_TOOL: true,
  INTERRUPT_EXPIRED: true, INTERRUPTS_PENDING: true, NOT_IN_SERVER_TOOL: true, RUN_ACTIVE: true, CLOSED: true,
} satisfies Record<HitlErrorCode, true>) as HitlErrorCode[];
const agentCodes = Object.keys({
  CONFIG_INVALID: true, INVALID_INPUT: true, THREAD_BUSY: true, SESSION_LIMIT: true, HISTORY_DIVERGED: true, AGENT_CLOSED: true,
  THREAD_STORE_UNAVAILABLE: true, THREAD_ELSEWHERE: true, REPLAY_UNAVAILABLE: true, UNKNOWN_THREAD: true, NOTIFY_REFUSED: true,
  PARKED_TURN_LOST: true, CAPACITY_EXHAUSTED: true,
} satisfies Record<AgentErrorCode, true>) as AgentErrorCode[];
const translatorCodes = Object.keys({ CONFIG_INVALID: true, UNKNOWN_TOOL_CALL: true } satisfies Record<TranslatorErrorCode, true>) as TranslatorErrorCode[];

const sources: [string, unknown[]][] = [
  ["harness", harnessCodes.map((code) => new HarnessError(code, "internal detail", { subject: "weather" }))],
  ["pool", poolCodes.map((code) => new PoolError(code, "internal detail"))],
  ["hitl", hitlCodes.map((code) => new HitlError(code, "internal detail"))],
  ["agent", agentCodes.map((code) => new AgentError(code, "internal detail"))],
  ["translator", translatorCodes.map((code) => new TranslatorError(code, "internal detail"))],
  ["anything else", [new Error("boom"), "a string", undefined]],
];

describe("every internal error code maps onto the client vocabulary (docs/error-codes.md)", () => {
  it.each(sources)("%s errors become RUN_ERROR codes a client can match", (_source, errors) => {
    for (const error of errors) {
      const { event } = toRunError(error);
      expect(event.code, `${String((error as { code?: string } | undefined)?.code ?? error)} → ${event.code}`).toSatisfy(
        (code: string | undefined) => code !== undefined && isClientErrorCode(code),
      );
    }
  });

  it("keeps the internal code where the vocabulary has it, and hides the rest behind AGENT_ERROR", () => {
    expect(toRunError(new AgentError("THREAD_BUSY", "x")).event.code).toBe("THREAD_BUSY");
    expect(toRunError(new HitlError("INVALID_ANSWER", "x")).event.code).toBe("INVALID_ANSWER");
    expect(toRunError(new TranslatorError("UNKNOWN_TOOL_CALL", "x")).event.code).toBe("AGENT_ERROR");
  });

  it("names a model failure with its HTTP status, or without one", () => {
    const failure = (httpCode: number | undefined) =>
      new StepFailure({ error: httpCode === undefined ? { message: "quota" } : { message: "quota", httpCode } } as never).runError().code;
    expect(failure(429)).toBe("MODEL_ERROR_429");
    expect(isClientErrorCode(failure(429) ?? "")).toBe(true);
    expect(failure(undefined)).toBe("MODEL_ERROR");
    expect(isClientErrorCode(failure(undefined) ?? "")).toBe(true);
  });

  it("lists no code that nothing sends (every agent-side entry is reachable from an internal code)", () => {
    const reachable = new Set(
      sources.flatMap(([, errors]) => errors.map((error) => toRunError(error).event.code)).concat(["MODEL_ERROR"]),
    );
    const agentSide = Object.entries(CLIENT_ERROR_CODES).filter(([, info]) => info.from !== "express").map(([name]) => name);
    expect(agentSide.filter((name) => !reachable.has(name))).toEqual([]);
  });
});
