import type { Logger } from "@ag-ui-antigravity/foundation";
import type { Request } from "express";
import { ExpressBindingError } from "../errors/express-binding-error.js";
import { httpError, type HttpErrorReply } from "../errors/http-error.js";
import type { AuthorizeRequest, Principal } from "./principal.js";

export type AuthorizationOutcome =
  | { readonly allowed: true; readonly principal: Principal | undefined }
  | { readonly allowed: false; readonly refusal: HttpErrorReply };

/** One message for every refusal, so a refusal never tells a caller why (or whether a thread exists). */
export const FORBIDDEN_REPLY: HttpErrorReply = Object.freeze(httpError("FORBIDDEN", "This request is not allowed."));

const UNAUTHENTICATED_REPLY: HttpErrorReply = Object.freeze(httpError("UNAUTHENTICATED", "Authentication is required."));

/**
 * Runs the app's `authorize` hook. Without a hook every request is allowed with no principal. The
 * hook failing in any way refuses the request (fail closed); the reason is logged, never sent.
 */
export async function authorizeRequest(
  request: Request,
  authorize: AuthorizeRequest | undefined,
  logger: Logger,
): Promise<AuthorizationOutcome> {
  if (authorize === undefined) return { allowed: true, principal: undefined };
  let principal: Principal | null | undefined;
  try {
    principal = await authorize(request);
  } catch (error) {
    if (ExpressBindingError.isInstance(error) && error.code === "FORBIDDEN") {
      return { allowed: false, refusal: FORBIDDEN_REPLY };
    }
    if (!ExpressBindingError.isInstance(error) || error.code !== "UNAUTHENTICATED") {
      logger.warn({ err: error }, "authorize hook threw; the request is refused as unauthenticated");
    }
    return { allowed: false, refusal: UNAUTHENTICATED_REPLY };
  }
  if (principal === null || principal === undefined) return { allowed: false, refusal: UNAUTHENTICATED_REPLY };
  if (!isUsablePrincipal(principal)) {
    logger.warn({}, "authorize hook returned a principal without a non-empty string id; the request is refused");
    return { allowed: false, refusal: UNAUTHENTICATED_REPLY };
  }
  return { allowed: true, principal };
}

function isUsablePrincipal(principal: unknown): principal is Principal {
  if (typeof principal === "string") return principal.length > 0;
  if (typeof principal !== "object" || principal === null) return false;
  const id = (principal as { id?: unknown }).id;
  return typeof id === "string" && id.length > 0;
}
