import { describe, expect, it } from "vitest";
import { isJsonMediaType } from "./json-body.js";

describe("isJsonMediaType", () => {
  it.each([
    ["application/json", true],
    ["Application/JSON; charset=utf-8", true],
    ["application/vnd.ag-ui.input+json", true],
    ["text/plain", false],
    ["application/jsonp", false],
    ["multipart/form-data; boundary=x", false],
    [undefined, false],
  ])("%s → %s", (contentType, expected) => {
    expect(isJsonMediaType(contentType)).toBe(expected);
  });
});
