import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { HarnessError } from "../errors/harness-error.js";
import { locateHarnessBinary, type HarnessBinarySource } from "../process/find-harness-binary.js";
import { describeSource, resolveHarnessVersion, type HarnessVersionSource } from "../process/harness-version.js";
import { HarnessDialect } from "../protocol/dialect.js";
import { DESCRIPTOR_FILE } from "./harness-cache.js";

/*
 * What `antigravity-harness doctor` (and the one line an agent logs at startup) says about the
 * harness this machine would run: which binary and why, its version and how that was learned, the
 * protocol the client will speak, whether a key is set, and, when the wheel's protocol descriptor is
 * at hand, where the harness and the client disagree.
 */

/** One finding of the doctor. */
export interface HarnessDiagnosis {
  /** The binary discovery found, where, and whether it is the emulator (a Node script); absent when none was found. */
  binary?: { path: string; source: HarnessBinarySource; emulator: boolean };
  /** The binary's version, where it was learned (`reason` says so in words), and whether it is newer than every known release. */
  version?: { version: string; source: HarnessVersionSource; reason: string; newerThanKnown: boolean };
  /** The release the client would speak (`version`) and its dialect (the first release of the same frame shapes). */
  protocol?: { version: string; dialect: string };
  /** Whether GEMINI_API_KEY is set (never its value), and whether it is needed (not for the emulator). */
  key: { set: boolean; needed: boolean };
  /**
   * The wheel's protocol descriptor (`localharness_pb2.py`) near the binary, and where it and the
   * client's schemas disagree; absent when there is none (or it could not be read: a warning then).
   */
  descriptor?: {
    path: string;
    /** Fields and enum values the harness has that the client does not know (harmless: kept as drift). */
    harnessOnly: string[];
    /** What the client would send that the harness lacks: a turn would fail on it. */
    clientOnly: string[];
  };
  /** Problems that stop a turn from running; empty when one can run. */
  problems: string[];
  /** Worth knowing, not stopping anything. */
  warnings: string[];
}

/**
 * What `diagnoseHarness` checks: the binary, version and environment to try, as `HarnessProcess` would
 * use them.
 */
export interface DiagnoseOptions {
  /** Check this binary instead of discovering one; missing, it is a problem (no fallback). */
  binaryPath?: string | undefined;
  /** Take this version instead of learning it, as the `harnessVersion` process option does. */
  harnessVersion?: string | undefined;
  /** The environment looked at: GEMINI_API_KEY, ANTIGRAVITY_HARNESS_PATH, ANTIGRAVITY_HARNESS_VERSION, PATH, ... (default process.env). */
  env?: Readonly<Record<string, string | undefined>> | undefined;
  /** Where `antigravity-harness install` put its binaries (default `$XDG_CACHE_HOME/ag-ui-antigravity/harness`). */
  cacheDirectory?: string | undefined;
  /** Abandons discovery (the Python query included): it rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

/** Looks at the harness without starting it. Never throws for a missing harness: that is a problem it reports. */
export async function diagnoseHarness(options: DiagnoseOptions = {}): Promise<HarnessDiagnosis> {
  const env = options.env ?? process.env;
  const diagnosis: HarnessDiagnosis = { key: { set: (env.GEMINI_API_KEY ?? "") !== "", needed: true }, problems: [], warnings: [] };
  let found: Awaited<ReturnType<typeof locateHarnessBinary>>;
  try {
    found = await locateHarnessBinary({
      ...(options.binaryPath === undefined ? {} : { explicitPath: options.binaryPath }),
      env: env as NodeJS.ProcessEnv,
      ...(options.cacheDirectory === undefined ? {} : { cacheDirectory: options.cacheDirectory }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    if (!HarnessError.isInstance(error) || error.code !== "HARNESS_NOT_FOUND") throw error;
    diagnosis.problems.push(`no harness binary: ${error.message.split("\n")[0] ?? ""} Run \`npx antigravity-harness install\`.`);
    return diagnosis;
  }
  const emulator = /\.(c|m)?js$/.test(found.path);
  diagnosis.binary = { path: found.path, source: found.source, emulator };
  diagnosis.key.needed = !emulator;
  if (!emulator && !diagnosis.key.set) diagnosis.problems.push("GEMINI_API_KEY is not set: the harness cannot call the model");

  const resolved = resolveHarnessVersion({ explicit: options.harnessVersion, env, binaryPath: found.path });
  diagnosis.version = { ...resolved, reason: describeSource(resolved.source) };
  const dialect = new HarnessDialect(resolved.version);
  diagnosis.protocol = { version: dialect.version, dialect: dialect.dialect };
  if (resolved.newerThanKnown) diagnosis.warnings.push(`harness ${resolved.version} is newer than ${dialect.version}, the newest release this client knows; it will be spoken to as ${dialect.version}`);
  if (resolved.source === "default" && !emulator) {
    diagnosis.warnings.push(`the harness's version could not be learned; the client assumes ${dialect.version} (set ANTIGRAVITY_HARNESS_VERSION to be sure)`);
  }

  const descriptorPath = descriptorBeside(found.path);
  if (descriptorPath !== undefined) {
    const { compareDescriptor, descriptorFromPythonModule } = await import("../protocol/descriptor-diff.js");
    try {
      const differences = compareDescriptor(await descriptorFromPythonModule(readFileSync(descriptorPath, "utf8")), dialect.version);
      const clientOnly = differences.filter((difference) => difference.side !== "harness-only" && difference.outbound);
      diagnosis.descriptor = {
        path: descriptorPath,
        harnessOnly: differences.filter((difference) => difference.side === "harness-only").map((difference) => difference.path),
        clientOnly: clientOnly.map((difference) =>
          difference.side === "mismatch"
            ? `${difference.path} (sent in another shape than the harness takes)`
            : `${difference.path}${difference.since === undefined ? "" : ` (the client thinks it came in ${difference.since})`}`,
        ),
      };
      if (clientOnly.length > 0) diagnosis.problems.push(`the client would send ${clientOnly.length} field(s) the harness lacks (see descriptor)`);
    } catch (error) {
      diagnosis.warnings.push(`the protocol descriptor ${descriptorPath} could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return diagnosis;
}

/** The doctor's verdict in one line, for a startup log. */
export function verdictLine(diagnosis: HarnessDiagnosis): string {
  const what = diagnosis.binary === undefined ? "no harness" : `${diagnosis.binary.emulator ? "the emulator" : "localharness"} ${diagnosis.version?.version ?? "?"} (${diagnosis.binary.source})`;
  const speaking = diagnosis.protocol === undefined ? "" : `, protocol ${diagnosis.protocol.version}`;
  if (diagnosis.problems.length > 0) return `harness: ${what}${speaking}: cannot run a turn: ${diagnosis.problems.join("; ")}`;
  return `harness: ${what}${speaking}: ready${diagnosis.warnings.length > 0 ? ` (${diagnosis.warnings.join("; ")})` : ""}`;
}

/** The wheel's `localharness_pb2.py` near a binary: beside it (antigravity-harness install), or in the wheel it came from. */
function descriptorBeside(binaryPath: string): string | undefined {
  const beside = join(dirname(binaryPath), DESCRIPTOR_FILE);
  if (existsSync(beside)) return beside;
  // site-packages/google/antigravity/bin/localharness: the module lives under google/antigravity.
  const packageRoot = dirname(dirname(binaryPath));
  if (basename(packageRoot) !== "antigravity") return undefined;
  for (const folder of ["connections/local", "proto", ""]) {
    const candidate = join(packageRoot, folder, DESCRIPTOR_FILE);
    if (existsSync(candidate)) return candidate;
  }
  try {
    for (const entry of readdirSync(packageRoot, { recursive: true, encoding: "utf8" })) if (basename(entry) === DESCRIPTOR_FILE) return join(packageRoot, entry);
  } catch {
    return undefined;
  }
  return undefined;
}
