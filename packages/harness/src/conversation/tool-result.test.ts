import { describe, expect, it } from "vitest";
import { toolErrorResponseFor, toolResponseFor, withMedia } from "./tool-result.js";

describe("toolResponseFor", () => {
  it("sends objects as is and wraps everything else as {result}", () => {
    expect(toolResponseFor("1", { a: 1 }).responseJson).toBe('{"a":1}');
    expect(toolResponseFor("1", [1, 2]).responseJson).toBe('{"result":[1,2]}');
    expect(toolResponseFor("1", "text").responseJson).toBe('{"result":"text"}');
    expect(toolResponseFor("1", undefined).responseJson).toBe('{"result":null}');
    expect(toolResponseFor("1", null).responseJson).toBe('{"result":null}');
  });

  it("moves media into supplementalMedia as base64", () => {
    const response = toolResponseFor("img", withMedia(undefined, [{ mimeType: "image/jpeg", data: new Uint8Array([0xff, 0xd8]), description: "photo" }]));
    expect(response).toEqual({
      id: "img",
      responseJson: '{"result":"Returned 1 media attachment(s)."}',
      supplementalMedia: [{ mimeType: "image/jpeg", data: "/9g=", description: "photo" }],
    });
  });

  it("reports errors in errorMessage", () => {
    expect(toolErrorResponseFor("x", "boom")).toEqual({ id: "x", errorMessage: "boom" });
  });
});
