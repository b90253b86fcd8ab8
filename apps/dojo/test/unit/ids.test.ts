import { expect, test } from "vitest";
import { newId } from "../../src/agent/ids.js";

test("newId makes distinct RFC 4122 version-4 ids, even outside a secure context", () => {
  const ids = Array.from({ length: 200 }, () => newId());
  for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(new Set(ids).size).toBe(ids.length);
});
