import { describe, expect, it } from "vitest";
import { normalizeKeys } from "./key-case.js";

describe("normalizeKeys", () => {
  it("turns snake_case field names into JSON names but leaves map keys alone", () => {
    expect(normalizeKeys({ tool_response: { response_json: "{}" }, mcp_servers: [{ stdio: { env: { MY_VAR: "x" } }, http: { headers: { x_api: "1" } } }] })).toEqual({
      toolResponse: { responseJson: "{}" },
      mcpServers: [{ stdio: { env: { MY_VAR: "x" } }, http: { headers: { x_api: "1" } } }],
    });
  });
});
