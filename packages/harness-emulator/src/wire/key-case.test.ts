import { describe, expect, it } from "vitest";
import { parseInput } from "./input-messages.js";
import { normalizeKeys } from "./key-case.js";

describe("normalizeKeys", () => {
  it("turns snake_case field names into JSON names but leaves map keys alone", () => {
    expect(normalizeKeys({ tool_response: { response_json: "{}" }, mcp_servers: [{ stdio: { env: { MY_VAR: "x" } }, http: { headers: { x_api: "1" } } }] })).toEqual({
      toolResponse: { responseJson: "{}" },
      mcpServers: [{ stdio: { env: { MY_VAR: "x" } }, http: { headers: { x_api: "1" } } }],
    });
  });

  it("lets parseInput accept snake_case, numeric strings for uint32 and unknown fields", () => {
    const event = parseInput(JSON.stringify({ question_response: { trajectory_id: "t", step_index: "3", cancelled: true, future: 1 } }));
    expect(event.questionResponse).toMatchObject({ trajectoryId: "t", stepIndex: 3, cancelled: true, future: 1 });
  });

  it("rejects non-objects with INPUT_INVALID", () => {
    expect(() => parseInput("[1]")).toThrow(expect.objectContaining({ code: "INPUT_INVALID" }));
    expect(() => parseInput("{")).toThrow(expect.objectContaining({ code: "INPUT_INVALID" }));
    expect(() => parseInput(JSON.stringify({ userInput: 5 }))).toThrow(expect.objectContaining({ code: "INPUT_INVALID" }));
  });
});
