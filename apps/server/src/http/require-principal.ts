import type { AuthorizeRequest } from "@ag-ui-antigravity/express";
import type { RequestHandler } from "express";

/**
 * Lets a request through only when `authorize` names a principal for it, as the agent routes do:
 * with `AUTH_TOKENS` set, `/metrics` (sessions, pool load, store health: what an attacker would
 * time an attack by) answers only a caller with a token. Anything else gets the binding's 401 body.
 */
export function requirePrincipal(authorize: AuthorizeRequest): RequestHandler {
  return (request, response, next) => {
    Promise.resolve()
      .then(() => authorize(request))
      .then(
        (principal) => {
          if (principal === null || principal === undefined) refuse(response);
          else next();
        },
        () => refuse(response),
      );
  };
}

function refuse(response: Parameters<RequestHandler>[1]): void {
  response.status(401).set("www-authenticate", "Bearer").json({ error: { code: "UNAUTHENTICATED", message: "Authentication is required." } });
}
