import { silentLogger } from "@ag-ui-antigravity/foundation";
import type { Request } from "express";
import { describe, expect, it } from "vitest";
import { ExpressBindingError } from "../errors/express-binding-error.js";
import { authorizeRequest } from "./authorize-request.js";
import { principalId } from "./principal.js";

const request = {} as Request;

describe("authorizeRequest", () => {
  it("allows everything with no principal when no hook is set", async () => {
    expect(await authorizeRequest(request, undefined, silentLogger)).toEqual({ allowed: true, principal: undefined });
  });

  it("passes string and object principals through", async () => {
    expect(await authorizeRequest(request, () => "alice", silentLogger)).toEqual({ allowed: true, principal: "alice" });
    const outcome = await authorizeRequest(request, async () => ({ id: "bob", tenant: "t" }), silentLogger);
    expect(outcome.allowed && outcome.principal !== undefined && principalId(outcome.principal)).toBe("bob");
  });

  it.each([
    ["null", () => null, 401],
    ["undefined", () => undefined, 401],
    ["an empty id", () => ({ id: "" }), 401],
    ["an empty string", () => "", 401],
    ["a thrown UNAUTHENTICATED", () => Promise.reject(new ExpressBindingError("UNAUTHENTICATED", "who?")), 401],
    ["a thrown FORBIDDEN", () => Promise.reject(new ExpressBindingError("FORBIDDEN", "no")), 403],
    ["any other throw", () => Promise.reject(new Error("boom")), 401],
  ])("refuses %s with %i", async (_label, hook, status) => {
    const outcome = await authorizeRequest(request, hook as never, silentLogger);
    expect(outcome.allowed).toBe(false);
    if (!outcome.allowed) expect(outcome.refusal.status).toBe(status);
  });
});
