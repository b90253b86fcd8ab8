import { PassThrough } from "node:stream";
import { afterEach, beforeEach, expect, it } from "vitest";
import { main } from "../../examples/minimal.js";
import { EMULATOR_BIN } from "../support/emulator.js";

const saved = { path: process.env.ANTIGRAVITY_HARNESS_PATH, key: process.env.GEMINI_API_KEY };

beforeEach(() => {
  process.env.ANTIGRAVITY_HARNESS_PATH = EMULATOR_BIN;
  delete process.env.GEMINI_API_KEY;
});

afterEach(() => {
  if (saved.path === undefined) delete process.env.ANTIGRAVITY_HARNESS_PATH;
  else process.env.ANTIGRAVITY_HARNESS_PATH = saved.path;
  if (saved.key !== undefined) process.env.GEMINI_API_KEY = saved.key;
});

it("the README's minimal example runs end to end against the emulator", async () => {
  const output = new PassThrough();
  let text = "";
  output.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  await main(output);
  expect(text).toContain("[tool get_time]");
  expect(text).toMatch(/answer: I called get_time\. It returned: \{"now":"\d{4}-/);
});
