import { describe, expect, it } from "vitest";
import { loadAllFixtures, loadFixture, wsMessages } from "../../test/support/protocol-fixtures.js";
import { DriftRegistry } from "./drift.js";
import { serializeMessage } from "./output-events.js";
import { parseHarnessConfig, parseInitializeConversationEvent, parseInputEvent, parseOutputEvent } from "./parse.js";
import { ProtocolError } from "./protocol-error.js";

const fixtures = loadAllFixtures();

describe("fixtures parse with the schema of their direction and re-encode unchanged", () => {
  it("covers every fixture file, both directions", () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(18);
    const total = fixtures.flatMap((fixture) => fixture.messages.filter((message) => message.channel === "ws")).length;
    expect(total).toBe(170);
  });

  for (const fixture of fixtures) {
    const harnessMessages = wsMessages(fixture, "harness->client");
    const clientMessages = wsMessages(fixture, "client->harness");
    if (harnessMessages.length + clientMessages.length === 0) continue;

    it(`${fixture.name}: harness → client messages are OutputEvents`, () => {
      for (const [index, message] of harnessMessages) {
        const parsed = parseOutputEvent(message.json);
        expect(JSON.parse(serializeMessage(parsed)), `${fixture.name}[${index}]`).toEqual(message.json);
        // The text form of a frame parses the same as the object form.
        expect(parseOutputEvent(JSON.stringify(message.json, null, 2))).toEqual(parsed);
      }
    });

    it(`${fixture.name}: client → harness messages are InitializeConversationEvents or InputEvents`, () => {
      for (const [index, message] of clientMessages) {
        const parsed = "config" in message.json ? parseInitializeConversationEvent(message.json) : parseInputEvent(message.json);
        expect(JSON.parse(serializeMessage(parsed)), `${fixture.name}[${index}]`).toEqual(message.json);
      }
    });
  }

  it("records no drift for any fixture message except the deliberate unknowns", () => {
    const drift = new DriftRegistry();
    for (const fixture of fixtures) {
      for (const [, message] of wsMessages(fixture, "harness->client")) parseOutputEvent(message.json, { drift });
      for (const [, message] of wsMessages(fixture, "client->harness")) {
        if ("config" in message.json) parseInitializeConversationEvent(message.json, { drift });
        else parseInputEvent(message.json, { drift });
      }
    }
    expect(drift.snapshot().enumValues).toEqual([]);
    expect(drift.snapshot().unknownFields.map((entry) => `${entry.path} ${String(entry.value)}`).sort()).toEqual([
      "OutputEvent brandNewEvent",
      "OutputEvent.stepUpdate futureField",
      "OutputEvent.stepUpdate.questionsRequest.questions[] holographicQuestion",
    ]);
  });
});

describe("proto3 JSON rules", () => {
  it("keeps 64-bit integers exactly as sent, string or number", () => {
    const event = parseOutputEvent({ seqNum: "12345678901234567890", timestampMicros: 7, usageUpdate: { total: { promptTokenCount: "150" } } });
    expect(event.seqNum).toBe("12345678901234567890");
    expect(event.timestampMicros).toBe(7);
    expect(event.usageUpdate?.total?.promptTokenCount).toBe("150");
  });

  it("rejects a 64-bit integer string that is not decimal", () => {
    expect(() => parseOutputEvent({ seqNum: "12abc" })).toThrowError(/seqNum/);
  });

  it("keeps enum numbers and unknown names as sent", () => {
    const event = parseOutputEvent({ stepUpdate: { state: 2, source: "SOURCE_ALIEN" } });
    expect(event.stepUpdate?.state).toBe(2);
    expect(event.stepUpdate?.source).toBe("SOURCE_ALIEN");
  });

  it("accepts known snake_case keys on input and renames them to their JSON names", () => {
    const input = parseInputEvent({ tool_confirmation: { trajectory_id: "t", step_index: 3, accepted: true } });
    expect(input).toEqual({ toolConfirmation: { trajectoryId: "t", stepIndex: 3, accepted: true } });

    const init = parseInitializeConversationEvent({
      config: { cascade_id: "c", harness_side_tools: { run_command: { enabled: true } }, enabled_hooks: ["LIFECYCLE_HOOK_PRE_TOOL"] },
    });
    expect(init.config).toEqual({
      cascadeId: "c",
      harnessSideTools: { runCommand: { enabled: true } },
      enabledHooks: ["LIFECYCLE_HOOK_PRE_TOOL"],
    });
  });

  it("does not rename the keys of map fields", () => {
    const config = parseHarnessConfig({
      mcp_servers: [{ name: "s", stdio: { command: "x", env: { MY_VAR: "1", some_key: "2" } } }],
    });
    expect(config.mcpServers?.[0]?.stdio?.env).toEqual({ MY_VAR: "1", some_key: "2" });
  });

  it("keeps unknown snake_case keys as unknown fields", () => {
    const drift = new DriftRegistry();
    const event = parseInputEvent({ user_input: "hi", not_a_field: 1 }, { drift });
    expect(event).toEqual({ userInput: "hi", not_a_field: 1 });
    expect(drift.snapshot().unknownFields).toEqual([{ kind: "unknown-field", path: "InputEvent", value: "not_a_field", count: 1 }]);
  });

  it("does not mutate the input object", () => {
    const input = { tool_response: { id: "a", response_json: "{}" } };
    const copy = structuredClone(input);
    parseInputEvent(input);
    expect(input).toEqual(copy);
  });

  it("accepts several oneof members at once (the harness sends one; a peer may send more)", () => {
    const event = parseOutputEvent({ stepUpdate: {}, trajectoryStateUpdate: { state: "STATE_RUNNING" } });
    expect(event.stepUpdate).toEqual({});
    expect(event.trajectoryStateUpdate?.state).toBe("STATE_RUNNING");
  });

  it("keeps the base64 of bytes fields and rejects what is not base64", () => {
    const config = parseHarnessConfig({ initialTrajectory: "ZmFrZV9wbmc=" });
    expect(config.initialTrajectory).toBe("ZmFrZV9wbmc=");
    expect(() => parseHarnessConfig({ initialTrajectory: "not base64!" })).toThrowError(ProtocolError);
  });

  it("keeps explicit-presence defaults", () => {
    const init = loadFixture("init").messages[0]!.json;
    expect(JSON.parse(serializeMessage(parseInitializeConversationEvent(init)))).toEqual(init);
    const hook = parseOutputEvent({ callHookRequest: { postToolArgs: { toolName: "x", error: "" } } });
    expect(hook.callHookRequest?.postToolArgs?.error).toBe("");
  });
});

describe("invalid messages", () => {
  function protocolErrorOf(run: () => unknown): ProtocolError {
    try {
      run();
    } catch (error) {
      expect(ProtocolError.isInstance(error)).toBe(true);
      return error as ProtocolError;
    }
    throw new Error("expected a ProtocolError");
  }

  it("reports schema violations with their paths", () => {
    const error = protocolErrorOf(() => parseOutputEvent({ stepUpdate: { text: 5, stepIndex: "x" } }));
    expect(error.code).toBe("PROTOCOL_INVALID_MESSAGE");
    expect(error.details.messageType).toBe("OutputEvent");
    expect(error.details.issues?.map((issue) => issue.path.join("."))).toEqual(
      expect.arrayContaining(["stepUpdate.text", "stepUpdate.stepIndex"]),
    );
    expect(error.message).toMatch(/stepUpdate\.text/);
  });

  it("rejects text that is not JSON", () => {
    const error = protocolErrorOf(() => parseInputEvent("{nope"));
    expect(error.code).toBe("PROTOCOL_INVALID_MESSAGE");
    expect(error.details.issues).toEqual([{ path: [], message: "invalid JSON" }]);
  });

  it("rejects JSON that is not an object", () => {
    for (const value of ["[]", "null", "3", '"text"']) {
      expect(protocolErrorOf(() => parseOutputEvent(value)).code).toBe("PROTOCOL_INVALID_MESSAGE");
    }
    expect(protocolErrorOf(() => parseHarnessConfig(undefined)).code).toBe("PROTOCOL_INVALID_MESSAGE");
  });

  it("records no drift for a message that failed", () => {
    const drift = new DriftRegistry();
    expect(() => parseOutputEvent({ brandNew: 1, stepUpdate: { text: 1 } }, { drift })).toThrow();
    expect(drift.isEmpty).toBe(true);
  });
});
