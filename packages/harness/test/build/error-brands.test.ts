import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import type * as Main from "../../src/index.js";
import type * as Protocol from "../../src/protocol.js";
import type * as Core from "@ag-ui-antigravity/core";

// The built package, as an application gets it: two entries (`.` and `./protocol`), each in an ESM
// and a CJS build, each with its own copy of the error classes (no shared chunks). The contract
// (README, "Errors") is `isInstance`, which must hold across all four copies.
// The specifiers are variables so that typechecking takes the types from src, not from a dist that
// a concurrent build may be rewriting.
type MainEntry = typeof Main;
type ProtocolEntry = typeof Protocol;
const mainSpecifier: string = "@ag-ui-antigravity/harness";
const protocolSpecifier: string = "@ag-ui-antigravity/harness/protocol";
const require = createRequire(import.meta.url);
const mainEsm = (await import(mainSpecifier)) as MainEntry;
const protocolEsm = (await import(protocolSpecifier)) as ProtocolEntry;
const mainCjs = require(mainSpecifier) as MainEntry;
const protocolCjs = require(protocolSpecifier) as ProtocolEntry;
// The error base is not inlined: every build imports the one CodedError of @ag-ui-antigravity/core.
const coreSpecifier: string = "@ag-ui-antigravity/core";
const coreEsm = (await import(coreSpecifier)) as typeof Core;
const coreCjs = require(coreSpecifier) as typeof Core;

function protocolErrorFrom(entry: ProtocolEntry): unknown {
  try {
    // A little-endian uint32 length header announcing far more than the reader's bound.
    new entry.FrameReader({ maxFrameBytes: 16 }).push(Uint8Array.from([0xff, 0xff, 0xff, 0x7f]));
  } catch (error) {
    return error;
  }
  throw new Error("FrameReader accepted a frame over its bound");
}

describe("error brands across the built entries", () => {
  it("recognises an error thrown by the protocol entry as a HarnessError of the main entry, in ESM and CJS", () => {
    for (const protocol of [protocolEsm, protocolCjs]) {
      const error = protocolErrorFrom(protocol);
      expect(error).toBeInstanceOf(Error);
      expect(mainEsm.HarnessError.isInstance(error)).toBe(true);
      expect(mainCjs.HarnessError.isInstance(error)).toBe(true);
      expect(protocolEsm.ProtocolError.isInstance(error)).toBe(true);
      expect(protocolCjs.ProtocolError.isInstance(error)).toBe(true);
      expect(mainEsm.HarnessError.isInstance(error) && error.code.startsWith("PROTOCOL_")).toBe(true);
      expect((error as Error).name).toBe("ProtocolError");
    }
  });

  it("tells a HarnessError that is not a protocol error apart, across builds", () => {
    const timeout = new mainCjs.HarnessError("TIMEOUT", "slow");
    expect(mainEsm.HarnessError.isInstance(timeout)).toBe(true);
    expect(protocolEsm.ProtocolError.isInstance(timeout)).toBe(false);
    expect(timeout instanceof mainEsm.HarnessError).toBe(false);
  });

  it("builds every error on core's one CodedError class: instanceof holds within a module system, the brand across them", () => {
    for (const [main, protocol, core] of [
      [mainEsm, protocolEsm, coreEsm],
      [mainCjs, protocolCjs, coreCjs],
    ] as const) {
      expect(new main.HarnessError("TIMEOUT", "slow")).toBeInstanceOf(core.CodedError);
      expect(protocolErrorFrom(protocol)).toBeInstanceOf(core.CodedError);
    }
    expect(coreEsm.CodedError.isInstance(new mainCjs.HarnessError("TIMEOUT", "slow"))).toBe(true);
    expect(coreCjs.CodedError.isInstance(protocolErrorFrom(protocolEsm))).toBe(true);
  });

  it("recognises the long-lived objects' classes by brand, not by identity", () => {
    expect(mainEsm.HarnessProcess.isInstance({})).toBe(false);
    expect(mainCjs.Conversation.isInstance(Object.create(mainEsm.Conversation.prototype))).toBe(true);
    expect(mainEsm.HarnessProcess.isInstance(Object.create(mainCjs.HarnessProcess.prototype))).toBe(true);
  });
});
