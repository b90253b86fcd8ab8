// The one place the browser tests get their server from. Today it is the scripted stand-in; when
// apps/server exists, replace the stand-in call below with one that starts it on an ephemeral port.
// DOJO_TEST_SERVER_URL points the tests at a server that is already running instead (for example
// `pnpm start` on :8027), which must then serve this package's dist under /dojo/.
import { fileURLToPath } from "node:url";
import { startStandInServer, type RunningServer } from "./standInServer.js";

export type { RunningServer };

export const dojoDistDirectory = fileURLToPath(new URL("../../dist/", import.meta.url));

export function startServer(): Promise<RunningServer> {
  const runningUrl = process.env["DOJO_TEST_SERVER_URL"];
  if (runningUrl !== undefined && runningUrl !== "") return Promise.resolve({ baseUrl: runningUrl.replace(/\/+$/, ""), close: async () => undefined });
  return startStandInServer(dojoDistDirectory);
}
