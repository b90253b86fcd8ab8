/** What the server reads from its environment. */
export interface ServerEnvironment {
  /** `PORT`, default 8027; 0 picks a free port (tests). */
  port: number;
  /** `HOST`, default 127.0.0.1: the demo is not meant to be reachable from other machines. */
  host: string;
  /** `LOG_LEVEL`, default info. */
  logLevel: string;
  /** `ANTIGRAVITY_DEMO_HARNESS`: auto (default), real or emulator. */
  harnessPreference: string | undefined;
  /** `DOJO_DIST_DIR`: serve the dojo from elsewhere than apps/dojo/dist. */
  dojoDistDirectory: string | undefined;
}

export class ServerEnvironmentError extends Error {
  override readonly name = "ServerEnvironmentError";
  readonly code = "ENVIRONMENT_INVALID";
}

export const defaultPort = 8027;
export const defaultHost = "127.0.0.1";

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

export function readServerEnvironment(env: NodeJS.ProcessEnv): ServerEnvironment {
  const portText = nonEmpty(env.PORT);
  const port = portText === undefined ? defaultPort : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new ServerEnvironmentError(`PORT must be an integer from 0 to 65535 (got ${JSON.stringify(env.PORT)}).`);
  return {
    port,
    host: nonEmpty(env.HOST) ?? defaultHost,
    logLevel: nonEmpty(env.LOG_LEVEL) ?? "info",
    harnessPreference: nonEmpty(env.ANTIGRAVITY_DEMO_HARNESS),
    dojoDistDirectory: nonEmpty(env.DOJO_DIST_DIR),
  };
}
