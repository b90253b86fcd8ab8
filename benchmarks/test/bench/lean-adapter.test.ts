import { randomUUID } from "node:crypto";
import { HttpAgent } from "@ag-ui/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error -- a plain .mjs module of the benchmarks, without types
import { startLeanAdapter as startLeanAdapterUntyped } from "../../bench/lib/lean-adapter.mjs";
// @ts-expect-error -- a plain .mjs module of the benchmarks, without types
import { benchModel } from "../../bench/lib/common.mjs";

interface LeanAdapter {
  url: string;
  close(): Promise<void>;
}
const startLeanAdapter = startLeanAdapterUntyped as (options: { model: string }) => Promise<LeanAdapter>;

// The lean adapter is a floor of benchmark 6 only if it does what an AG-UI adapter must: a stream a
// real client accepts (its verifier checks the event order), with the model's reply in it.
describe("the benchmarks' lean adapter", () => {
  let adapter: LeanAdapter;
  beforeAll(async () => {
    adapter = await startLeanAdapter({ model: benchModel as string });
  });
  afterAll(async () => {
    await adapter.close();
  });

  it("answers HttpAgent's runs with a valid stream holding the reply, turn after turn", async () => {
    const client = new HttpAgent({ url: adapter.url, threadId: randomUUID() });
    for (let turn = 0; turn < 2; turn += 1) {
      client.addMessage({ id: randomUUID(), role: "user", content: "hello" });
      const { newMessages } = await client.runAgent();
      expect(newMessages).toEqual([expect.objectContaining({ role: "assistant", content: "ok" })]);
    }
  });

  it("refuses a body that is not a text chat with a 400", async () => {
    const response = await fetch(adapter.url, { method: "POST", headers: { "content-type": "application/json" }, body: '{"threadId":"t"}' });
    expect(response.status).toBe(400);
    await response.body?.cancel();
  });
});
