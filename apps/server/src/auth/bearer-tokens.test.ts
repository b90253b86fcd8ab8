import type { Request } from "express";
import { describe, expect, it } from "vitest";
import { bearerTokenAuthorize, isLoopbackHost, parseAuthTokens } from "./bearer-tokens.js";

const requestWith = (authorization?: string): Request => ({ header: (name: string) => (name.toLowerCase() === "authorization" ? authorization : undefined) }) as unknown as Request;

describe("AUTH_TOKENS", () => {
  it("maps each bearer token to its principal and refuses anything else", () => {
    const authorize = bearerTokenAuthorize(parseAuthTokens("alice:alice-token-0123456789, bob:bob-token-0123456789abc"));
    expect(authorize(requestWith("Bearer alice-token-0123456789"))).toEqual({ id: "alice" });
    expect(authorize(requestWith("bearer bob-token-0123456789abc"))).toEqual({ id: "bob" });
    for (const header of [undefined, "", "Bearer", "Bearer wrong-token-0123456789", "Basic YWxpY2U6eA==", "Bearer alice-token-012345678"]) {
      expect(authorize(requestWith(header)), String(header)).toBeNull();
    }
  });

  it("refuses malformed entries without repeating a token", () => {
    expect(() => parseAuthTokens("alice")).toThrow(/entry 1 must be name:token/);
    expect(() => parseAuthTokens("alice:short-secret")).toThrow(/at least 16 characters/);
    expect(() => parseAuthTokens("a:same-token-0123456789,b:same-token-0123456789")).toThrow(/repeats another entry's token/);
    expect(() => parseAuthTokens(" , ")).toThrow(/names no name:token pair/);
    try {
      parseAuthTokens("alice:short-secret");
    } catch (error) {
      expect((error as Error).message).not.toContain("short-secret");
    }
  });

  it("knows loopback hosts", () => {
    for (const host of ["127.0.0.1", "127.1.2.3", "localhost", "::1"]) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ["0.0.0.0", "::", "192.168.1.5", "example.com"]) expect(isLoopbackHost(host), host).toBe(false);
  });
});
