import type { Request, Response } from "express";

/** GET handler for the health route: the process is up and routing. Says nothing about agents. */
export function healthHandler(_request: Request, response: Response): void {
  response.status(200).set("Cache-Control", "no-store").json({ status: "ok" });
}
