import type { Request } from "express";
import { type Principal, principalId } from "../auth/principal.js";

/**
 * Whose account a request is counted on: the principal `authorize` named, else the client's address
 * (`request.ip`, which follows the app's `trust proxy` setting, so clients behind a proxy the app
 * trusts are told apart by their forwarded address).
 */
export function clientKeyOf(principal: Principal | undefined, request: Request): string {
  if (principal !== undefined) return `principal:${principalId(principal)}`;
  return `address:${request.ip ?? request.socket.remoteAddress ?? "unknown"}`;
}
