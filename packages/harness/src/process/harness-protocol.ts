import type { Logger } from "@ag-ui-antigravity/foundation";
import { HarnessError } from "../errors/harness-error.js";
import { HarnessDialect } from "../protocol/dialect.js";
import type { HarnessProcessOptions } from "./harness-process-options.js";
import { describeSource, resolveHarnessVersion, type ResolvedHarnessVersion } from "./harness-version.js";

/** Which harness release a process is spoken to as, and why (docs/protocol.md, "Versions"). */
export interface HarnessProtocolInfo extends ResolvedHarnessVersion {
  /** How frames are built and checked for it: `dialect.version` is the release spoken. */
  readonly dialect: HarnessDialect;
}

/** The harness version to speak and its dialect; a version that is not one is a configuration error. */
export function protocolFor(options: HarnessProcessOptions, binaryPath: string): HarnessProtocolInfo {
  try {
    const resolved = resolveHarnessVersion({ explicit: options.harnessVersion, env: options.env, binaryPath });
    return { ...resolved, dialect: new HarnessDialect(resolved.version) };
  } catch (error) {
    throw new HarnessError("CONFIG_INVALID", error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/** Versions already announced per logger: a pool starts many processes, and one line each is enough. */
const announcedProtocols = new WeakMap<object, Set<string>>();

/** Says once per logger which protocol is spoken and why; a harness newer than every known release is a warning. */
export function announceProtocol(logger: Logger, loggerIdentity: object, protocol: HarnessProtocolInfo): void {
  const key = `${protocol.version}:${protocol.source}`;
  let announced = announcedProtocols.get(loggerIdentity);
  if (announced === undefined) announcedProtocols.set(loggerIdentity, (announced = new Set()));
  if (announced.has(key)) return;
  announced.add(key);
  const fields = { harnessVersion: protocol.version, protocol: protocol.dialect.version, dialect: protocol.dialect.dialect, source: protocol.source };
  if (protocol.newerThanKnown) {
    logger.warn(
      fields,
      `harness ${protocol.version} is newer than ${protocol.dialect.version}, the newest release this client knows; speaking ${protocol.dialect.version}'s protocol (from ${describeSource(protocol.source)})`,
    );
  } else {
    logger.info(fields, `speaking harness protocol ${protocol.dialect.version} (from ${describeSource(protocol.source)})`);
  }
}

