import { expectTypeOf, it } from "vitest";
import type { Conversation, ConversationConfig } from "@ag-ui-antigravity/harness";
import { FakeHarness, type FakeConfig, type FakeConversation } from "../../test/support/fake-harness.js";
import { HarnessPool } from "./harness-pool.js";
import type { PoolLease } from "./pool-lease.js";

// Checked by `tsc` (pnpm typecheck): the pool's types follow its process factory.
it("takes its config and conversation types from startProcess, and from the harness client by default", async () => {
  const faked = new HarnessPool({ startProcess: new FakeHarness().startProcess });
  expectTypeOf(faked).toEqualTypeOf<HarnessPool<FakeConfig, FakeConversation>>();
  expectTypeOf(faked.acquire).parameter(0).toHaveProperty("config").toEqualTypeOf<FakeConfig>();
  const real = new HarnessPool();
  expectTypeOf(real.acquire).returns.resolves.toEqualTypeOf<PoolLease<Conversation>>();
  expectTypeOf(real.acquire).parameter(0).toHaveProperty("config").toEqualTypeOf<ConversationConfig>();
  await Promise.all([faked.close(), real.close()]);
});
