import { expectTypeOf, it } from "vitest";
import { FakeHarness, type FakeConfig, type FakeConversation } from "../test/support/fake-harness.js";
import { HarnessPool } from "./index.js";
import type { Conversation, ConversationConfig } from "@ag-ui-antigravity/harness";
it("infers", () => {
  const pool = new HarnessPool({ startProcess: new FakeHarness().startProcess });
  expectTypeOf(pool).toEqualTypeOf<HarnessPool<FakeConfig, FakeConversation>>();
  expectTypeOf(new HarnessPool()).toEqualTypeOf<HarnessPool<ConversationConfig, Conversation>>();
});
