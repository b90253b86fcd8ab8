import { findHarnessBinary } from "@ag-ui-antigravity/harness";
import { emulatorBinaryPath as emulatorExecutable } from "@ag-ui-antigravity/harness-emulator/binary-path";
import { CodedError, nameErrorClass } from "@ag-ui-antigravity/foundation";

/**
 * Which harness the demo agents run on, and why. The server never picks one silently: `reason` is
 * printed at startup and served by /metrics.
 */
export type HarnessChoice =
  | { kind: "real"; binaryPath: string; apiKey: string; model: string | undefined; reason: string }
  | { kind: "emulator"; binaryPath: string; reason: string };

/** `ANTIGRAVITY_DEMO_HARNESS`: `auto` (default) picks the real harness when it can, the others force one. */
export type HarnessPreference = "auto" | "real" | "emulator";

/** The harness asked for (ANTIGRAVITY_DEMO_HARNESS) is not a choice, or cannot run here. */
export class HarnessChoiceError extends CodedError<"HARNESS_UNAVAILABLE"> {
  static {
    nameErrorClass(this, "HarnessChoiceError");
  }

  constructor(message: string) {
    super("HARNESS_UNAVAILABLE", message);
  }
}

export function parseHarnessPreference(value: string | undefined): HarnessPreference {
  if (value === undefined || value === "" || value === "auto") return "auto";
  if (value === "real" || value === "emulator") return value;
  throw new HarnessChoiceError(`ANTIGRAVITY_DEMO_HARNESS must be auto, real or emulator (got ${JSON.stringify(value)}).`);
}

/** The emulator's executable, as the emulator package reports it. */
export function emulatorBinaryPath(): string {
  return emulatorExecutable();
}

/**
 * One line about why no binary was found. The discovery error lists every place it searched, one
 * per line; the startup message keeps its first sentence and names the places in short.
 */
function describeMissingBinary(error: unknown): string {
  const firstLine = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
  const sentence = firstLine.replace(/\s*Searched:\s*$/, "").replace(/\. Install it.*$/, "").replace(/\.$/, "");
  return sentence.endsWith("localharness not found") ? `${sentence} in ANTIGRAVITY_HARNESS_PATH, python3's site-packages or PATH` : sentence;
}

export interface ChooseHarnessOptions {
  preference: HarnessPreference;
  env: NodeJS.ProcessEnv;
  /** Injectable for tests; defaults to the harness package's discovery (ANTIGRAVITY_HARNESS_PATH, python3, PATH). */
  findBinary?: (env: NodeJS.ProcessEnv) => Promise<string>;
}

/**
 * The real harness needs both a `localharness` binary and GEMINI_API_KEY; without either the demo
 * still works, on the emulator's scripted scenarios. `preference: "real"` turns a missing piece into
 * an error instead, for deployments that must never fall back.
 */
export async function chooseHarness(options: ChooseHarnessOptions): Promise<HarnessChoice> {
  const { preference, env } = options;
  if (preference === "emulator") {
    return { kind: "emulator", binaryPath: emulatorBinaryPath(), reason: "ANTIGRAVITY_DEMO_HARNESS=emulator asks for the emulator" };
  }
  const apiKey = env.GEMINI_API_KEY ?? "";
  const model = env.GEMINI_MODEL === undefined || env.GEMINI_MODEL === "" ? undefined : env.GEMINI_MODEL;
  const findBinary = options.findBinary ?? ((source: NodeJS.ProcessEnv) => findHarnessBinary({ env: source, signal: AbortSignal.timeout(15_000) }));

  let binaryPath: string | undefined;
  let notFound: string | undefined;
  try {
    binaryPath = await findBinary(env);
  } catch (error) {
    notFound = describeMissingBinary(error);
  }

  if (binaryPath !== undefined && apiKey !== "") {
    return { kind: "real", binaryPath, apiKey, model, reason: `found localharness at ${binaryPath} and GEMINI_API_KEY is set` };
  }
  const missing = [
    ...(binaryPath === undefined ? [`no localharness binary (${notFound ?? "not found"})`] : []),
    ...(apiKey === "" ? [binaryPath === undefined ? "GEMINI_API_KEY is not set" : `GEMINI_API_KEY is not set (localharness was found at ${binaryPath})`] : []),
  ].join("; ");
  if (preference === "real") throw new HarnessChoiceError(`ANTIGRAVITY_DEMO_HARNESS=real, but ${missing}.`);
  return { kind: "emulator", binaryPath: emulatorBinaryPath(), reason: missing };
}
