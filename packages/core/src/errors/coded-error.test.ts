import { describe, expect, it } from "vitest";
import { CLIENT_ERROR_CODES, isClientErrorCode } from "./client-error-codes.js";
import { CodedError } from "./coded-error.js";

describe("CodedError", () => {
  it("carries its code, message and cause, and is an Error", () => {
    const cause = new Error("socket closed");
    const error = new CodedError("SOME_CODE", "it failed", { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe("SOME_CODE");
    expect(error.message).toBe("it failed");
    expect(error.cause).toBe(cause);
    expect("cause" in new CodedError("SOME_CODE", "no cause")).toBe(false);
  });

  it("recognises an instance built by another copy of the package by its brand, and nothing else", () => {
    // Another copy of this package (a duplicated install, the CJS build beside the ESM one) has its
    // own class object; the brand it sets is the same registered symbol.
    class OtherCopyOfCodedError extends Error {}
    Object.defineProperty(OtherCopyOfCodedError.prototype, Symbol.for("ag-ui-antigravity.CodedError"), { value: true });
    expect(CodedError.isInstance(new OtherCopyOfCodedError("x"))).toBe(true);
    expect(CodedError.isInstance(new CodedError("A", "a"))).toBe(true);
    expect(CodedError.isInstance(new Error("plain"))).toBe(false);
    expect(CodedError.isInstance({ code: "A", message: "looks alike" })).toBe(false);
    expect(CodedError.isInstance(null)).toBe(false);
  });

  it("narrows a subclass to the subclass through the inherited isInstance", () => {
    class SubError extends CodedError<"SUB"> {}
    const sub = new SubError("SUB", "sub");
    expect(SubError.isInstance(sub)).toBe(true);
    expect(CodedError.isInstance(sub)).toBe(true);
  });
});

describe("the client error codes", () => {
  it("accepts the vocabulary's codes and MODEL_ERROR_<status>, and refuses anything else", () => {
    for (const code of Object.keys(CLIENT_ERROR_CODES)) expect(isClientErrorCode(code)).toBe(true);
    expect(isClientErrorCode("MODEL_ERROR_429")).toBe(true);
    expect(isClientErrorCode("MODEL_ERROR_")).toBe(false);
    expect(isClientErrorCode("toString")).toBe(false);
    expect(isClientErrorCode("NOT_A_CODE")).toBe(false);
  });

  it("is frozen: a caller cannot change the contract at run time", () => {
    expect(Object.isFrozen(CLIENT_ERROR_CODES)).toBe(true);
  });
});
