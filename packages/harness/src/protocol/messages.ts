/*
 * Zod schemas for every message of docs/protocol.md ("Messages"), in proto3 JSON form, across every
 * release in `harness-versions.ts`: the first frame's config (`messages/config.ts`), what the client
 * sends after it (`messages/input.ts`) and what the harness sends (`messages/output.ts`). Every field
 * is optional, every object is loose (unknown fields are kept, never dropped), oneofs are not
 * enforced: that is how what a harness sends is parsed. `strict-check.ts` narrows the same schemas
 * to one release, the way that release's own parser reads what we send.
 */
export * from "./messages/common.js";
export * from "./messages/config.js";
export * from "./messages/input.js";
export * from "./messages/output.js";
