import { describe, expect, it } from "vitest";
import { ExpressBindingError } from "./express-binding-error.js";

describe("ExpressBindingError", () => {
  it("carries its code, name and cause", () => {
    const cause = new Error("inner");
    const error = new ExpressBindingError("CONFIG_INVALID", "bad", { cause });
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.name).toBe("ExpressBindingError");
    expect(error.cause).toBe(cause);
  });

  it("is recognised by its global brand, not by identity of the class", () => {
    const fromAnotherCopy = Object.assign(new Error("x"), { [Symbol.for("ag-ui-antigravity.ExpressBindingError")]: true });
    expect(ExpressBindingError.isInstance(fromAnotherCopy)).toBe(true);
    expect(ExpressBindingError.isInstance(new Error("plain"))).toBe(false);
    expect(ExpressBindingError.isInstance(null)).toBe(false);
  });
});
