import type { Request } from "express";

/** Who is calling: an id string, or an object with an `id` plus whatever the app wants to keep. */
export type Principal = string | { readonly id: string; readonly [key: string]: unknown };

/**
 * Decides who a request comes from. Return the principal to let the request through. Return `null`
 * or `undefined`, or throw, to refuse it: a thrown `ExpressBindingError` with code `FORBIDDEN` is
 * answered with 403, anything else with 401.
 */
export type AuthorizeRequest = (request: Request) => Principal | null | undefined | Promise<Principal | null | undefined>;

/** The stable key a principal is compared by. */
export function principalId(principal: Principal): string {
  return typeof principal === "string" ? principal : principal.id;
}
