import { describe, expect, it } from "vitest";
import { hasBrand } from "./brand.js";
import { CodedError } from "@ag-ui-antigravity/core";
import { nameErrorClass } from "./name-error-class.js";

type DemoCode = "ONE" | "TWO";

/** Each call builds a new class, as each bundle (ESM, CJS, a second entry, a duplicated install) does. */
function defineDemoError() {
  return class DemoError extends CodedError<DemoCode> {
    readonly extra: number;
    static {
      nameErrorClass(this, "DemoError");
    }
    constructor(code: DemoCode, message: string, options: { cause?: unknown; extra?: number } = {}) {
      super(code, message, options);
      this.extra = options.extra ?? 0;
    }
  };
}

describe("nameErrorClass, on the CodedError of @ag-ui-antigravity/core", () => {
  it("carries code, message, cause and the class's name", () => {
    const DemoError = defineDemoError();
    const cause = new Error("below");
    const error = new DemoError("TWO", "it broke", { cause, extra: 3 });
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe("TWO");
    expect(error.message).toBe("it broke");
    expect(error.cause).toBe(cause);
    expect(error.name).toBe("DemoError");
    expect(error.extra).toBe(3);
    expect(String(error.stack)).toMatch(/^DemoError: it broke/);
    expect("cause" in new DemoError("ONE", "no cause")).toBe(false);
  });

  it("recognises instances of another copy of the same class by brand, where instanceof fails", () => {
    const FirstCopy = defineDemoError();
    const SecondCopy = defineDemoError();
    const fromSecond = new SecondCopy("ONE", "from the other bundle");
    expect(fromSecond instanceof FirstCopy).toBe(false);
    expect(FirstCopy.isInstance(fromSecond)).toBe(true);
    expect(CodedError.isInstance(fromSecond)).toBe(true);
  });

  it("tells classes apart and refuses look-alikes", () => {
    const DemoError = defineDemoError();
    class OtherError extends CodedError<"X"> {
      static {
        nameErrorClass(this, "OtherError");
      }
    }
    expect(DemoError.isInstance(new OtherError("X", "other"))).toBe(false);
    expect(OtherError.isInstance(new DemoError("ONE", "demo"))).toBe(false);
    expect(DemoError.isInstance({ name: "DemoError", code: "ONE", message: "plain object" })).toBe(false);
    expect(DemoError.isInstance(new Error("plain"))).toBe(false);
    expect(DemoError.isInstance(null)).toBe(false);
    expect(DemoError.isInstance("DemoError")).toBe(false);
  });

  it("keeps the parent's brand on a subclass", () => {
    const DemoError = defineDemoError();
    class NarrowError extends DemoError {
      static {
        nameErrorClass(this, "NarrowError");
      }
    }
    const narrow = new NarrowError("ONE", "narrow");
    expect(DemoError.isInstance(narrow)).toBe(true);
    expect(NarrowError.isInstance(narrow)).toBe(true);
    expect(NarrowError.isInstance(new DemoError("ONE", "wide"))).toBe(false);
    expect(narrow.name).toBe("NarrowError");
    expect(hasBrand(narrow, "DemoError")).toBe(true);
  });
});
