// The one place the browser tests get their server from. Today it is the stand-in; when apps/server
// exists, replace the body with a call that starts it on an ephemeral port and serves this dist.
import { fileURLToPath } from "node:url";
import { startStandInServer, type RunningServer } from "./standInServer.js";

export type { RunningServer };

export const dojoDistDirectory = fileURLToPath(new URL("../../dist/", import.meta.url));

export function startServer(): Promise<RunningServer> {
  return startStandInServer(dojoDistDirectory);
}
