// The README's minimal server. `HttpAgent` stands in for any AbstractAgent (an `AntigravityAgent`
// plugs in the same way); here it relays to an upstream AG-UI server so no model is needed.
import { HttpAgent } from "@ag-ui/client";
import { createAntigravityApp, ExpressBindingError, type Principal } from "@ag-ui-antigravity/express";
import type { Request } from "express";

function principalFromBearerToken(request: Request): Principal | null {
  const token = request.header("authorization")?.replace(/^Bearer\s+/i, "");
  if (token === undefined || token.length === 0) return null;
  if (token === "revoked") throw new ExpressBindingError("FORBIDDEN", "revoked token");
  return { id: `user:${token}` };
}

export const app = createAntigravityApp(
  { chat: new HttpAgent({ url: "http://localhost:9000/chat" }), research: new HttpAgent({ url: "http://localhost:9000/research" }) },
  { path: "/agents", authorize: principalFromBearerToken, logger: console },
);
app.listen(8027); // POST /agents/chat, GET /agents/chat/capabilities, GET /healthz
