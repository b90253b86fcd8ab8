import { describe, expect, it } from "vitest";
import { versionProfile } from "../version/version-profile.js";
import { readInitializeEvent, readInputEvent } from "./input-messages.js";

const strictly = (version: string) => ({ profile: versionProfile(version), strict: true });
const leniently = (version: string) => ({ profile: versionProfile(version), strict: false });

describe("readInputEvent", () => {
  it("accepts snake_case and numeric strings for uint32, as protojson does", () => {
    const reading = readInputEvent(JSON.stringify({ question_response: { trajectory_id: "t", step_index: "3", cancelled: true } }), strictly("0.1.21"));
    expect(reading).toMatchObject({ ok: true, message: { questionResponse: { trajectoryId: "t", stepIndex: 3, cancelled: true } } });
  });

  it("takes each release's turn input and refuses the other generation's, in the harness's words", () => {
    expect(readInputEvent(JSON.stringify({ userInput: "hi" }), strictly("0.1.10"))).toMatchObject({ ok: true, message: { userInput: "hi" } });
    expect(readInputEvent(JSON.stringify({ userInput: { parts: [{ text: "hi" }] } }), strictly("0.1.14"))).toMatchObject({ ok: true });
    const plain = readInputEvent(JSON.stringify({ userInput: "hi" }), strictly("0.1.14"));
    expect(plain).toEqual({ ok: false, error: 'proto: (line 1:2): invalid value for message field userInput: "hi"' });
    const parts = readInputEvent(JSON.stringify({ userInput: { parts: [{ text: "hi" }] } }), strictly("0.1.10"));
    expect(parts).toEqual({ ok: false, error: "proto: (line 1:2): invalid value for string field userInput: {" });
    const hooks = readInitializeEvent(JSON.stringify({ config: { enabledHooks: "LIFECYCLE_HOOK_PRE_TURN" } }), strictly("0.1.21"));
    expect(hooks).toEqual({ ok: false, error: 'proto: (line 1:12): invalid value for list field enabledHooks: "LIFECYCLE_HOOK_PRE_TURN"' });
    const complex = readInputEvent(JSON.stringify({ complexUserInput: { parts: [{ text: "hi" }] } }), strictly("0.1.11"));
    expect(complex).toEqual({ ok: false, error: 'proto: (line 1:2): unknown field "complexUserInput"' });
  });

  it("names an unknown field, an unknown enum name and a oneof conflict with their position", () => {
    expect(readInputEvent('{"haltRequest": true, "futureField": 1}', strictly("0.1.21"))).toEqual({ ok: false, error: 'proto: (line 1:23): unknown field "futureField"' });
    const decision = readInputEvent(JSON.stringify({ callHookResponse: { requestId: "r", stopResult: { decision: "MAYBE" } } }), strictly("0.1.21"));
    expect(decision).toMatchObject({ ok: false, error: expect.stringContaining('invalid value for enum field decision: "MAYBE"') });
    const both = readInputEvent(JSON.stringify({ haltRequest: true, sessionEndRequest: true }), strictly("0.1.21"));
    expect(both).toMatchObject({ ok: false, error: expect.stringContaining('error parsing "sessionEndRequest", oneof') });
  });

  it("refuses what a release does not have yet: the STOP hook's answer before 0.1.16", () => {
    const frame = JSON.stringify({ callHookResponse: { requestId: "r", stopResult: { decision: "CONTINUE" } } });
    expect(readInputEvent(frame, strictly("0.1.14"))).toEqual({ ok: false, error: 'proto: (line 1:38): unknown field "stopResult"' });
    expect(readInputEvent(frame, strictly("0.1.16"))).toMatchObject({ ok: true });
  });

  it("words a frame that is not JSON as a syntax error", () => {
    expect(readInputEvent("{", strictly("0.1.21"))).toMatchObject({ ok: false, error: expect.stringMatching(/^proto: syntax error \(line 1:\d+\): /) });
  });

  it("with strictness off, reads both generations and ignores unknown fields", () => {
    expect(readInputEvent(JSON.stringify({ userInput: "hi", futureField: 1 }), leniently("0.1.21"))).toMatchObject({ ok: true, message: { userInput: "hi" } });
    expect(readInputEvent(JSON.stringify({ complexUserInput: { parts: [{ text: "x" }] } }), leniently("0.1.21"))).toMatchObject({ ok: true });
    expect(readInputEvent(JSON.stringify({ userInput: 5 }), leniently("0.1.21"))).toMatchObject({ ok: false });
  });
});

describe("readInitializeEvent", () => {
  it("refuses an enum name the release does not have, as 0.1.15 refuses LIFECYCLE_HOOK_STOP", () => {
    const frame = JSON.stringify({ config: { models: [{ name: "m", types: ["MODEL_TYPE_TEXT"] }], enabledHooks: ["LIFECYCLE_HOOK_PRE_TURN", "LIFECYCLE_HOOK_STOP"] } });
    const reading = readInitializeEvent(frame, strictly("0.1.15"));
    expect(reading).toMatchObject({ ok: false, error: expect.stringMatching(/^proto: \(line 1:\d+\): invalid value for enum field enabledHooks: "LIFECYCLE_HOOK_STOP"$/) });
    expect(readInitializeEvent(frame, strictly("0.1.16"))).toMatchObject({ ok: true });
  });

  it("refuses agentMode outside 0.1.10 and agentBehavior before 0.1.11", () => {
    expect(readInitializeEvent(JSON.stringify({ config: { agentMode: "AGENT_MODE_AUTONOMOUS" } }), strictly("0.1.10"))).toMatchObject({ ok: true });
    expect(readInitializeEvent(JSON.stringify({ config: { agentMode: "AGENT_MODE_AUTONOMOUS" } }), strictly("0.1.11"))).toMatchObject({ ok: false, error: expect.stringContaining('unknown field "agentMode"') });
    expect(readInitializeEvent(JSON.stringify({ config: { agentBehavior: "AGENT_BEHAVIOR_INTERACTIVE" } }), strictly("0.1.10"))).toMatchObject({ ok: false });
  });

  it("reads an absent config as an empty one", () => {
    expect(readInitializeEvent("{}", strictly("0.1.21"))).toEqual({ ok: true, message: {} });
  });
});
