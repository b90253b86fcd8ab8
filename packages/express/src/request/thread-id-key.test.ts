import { describe, expect, it } from "vitest";
import { checkThreadIdKey, countTopLevelThreadIdKeys } from "./thread-id-key.js";

describe("the body's threadId key", () => {
  it("counts only top-level keys, plain and escaped, skipping strings and nested objects", () => {
    expect(countTopLevelThreadIdKeys('{"threadId":"a","x":{"threadId":"b"},"y":["threadId"],"z":"\\"threadId\\""}')).toEqual({ plain: 1, escaped: 0 });
    expect(countTopLevelThreadIdKeys('{"threadId":"a" , "threadId" : "b"}')).toEqual({ plain: 2, escaped: 0 });
    expect(countTopLevelThreadIdKeys('{"thread\\u0049d":"a","threadId":"b"}')).toEqual({ plain: 1, escaped: 1 });
    expect(countTopLevelThreadIdKeys('{"a":"threadId","threadId":"b"}')).toEqual({ plain: 1, escaped: 0 });
    expect(countTopLevelThreadIdKeys('{"a":"x\\\\","threadId":"b"}')).toEqual({ plain: 1, escaped: 0 });
  });

  it("passes the common body without a scan, and refuses a repeated or escaped key", () => {
    expect(checkThreadIdKey('{"threadId":"a","messages":[]}')).toBeUndefined();
    expect(checkThreadIdKey('{"threadId":"a","forwardedProps":{"threadId":"b"}}')).toBeUndefined();
    expect(checkThreadIdKey('{"threadId":"a","threadId":"b"}')?.status).toBe(400);
    expect(checkThreadIdKey('{"thread\\u0049d":"a"}')?.message).toMatch(/plainly/);
    expect(checkThreadIdKey('{"threadId":"\\u00e9"}')).toBeUndefined();
  });
});
