import { parseArgs } from "node:util";
import { diagnoseHarness, verdictLine, type HarnessDiagnosis } from "../install/diagnose-harness.js";
import type { DownloadProgress } from "../install/download-wheel.js";
import { installHarness } from "../install/install-harness.js";
import { PackageIndexError } from "../install/package-index.js";
import { HARNESS_PACKAGE_VERSION } from "../process/package-version.js";
import { smokeTurn, type SmokeResult } from "./smoke-turn.js";

/*
 * `antigravity-harness`: get the harness without Python (`install`) and know it works (`doctor`).
 * Every command answers --help, --version and --json; failures are one line and a non-zero exit,
 * never a stack trace.
 */

const USAGE = `Usage: antigravity-harness <command> [options]

Commands:
  install [--version V] [--index-url URL]
      Download google-antigravity's wheel for this machine from a PyPI-compatible index
      (default: PIP_INDEX_URL, else https://pypi.org/simple; proxies from HTTPS_PROXY),
      check its sha256 and unpack the harness into $XDG_CACHE_HOME/ag-ui-antigravity/harness/<version>/.
      The client finds it there after ANTIGRAVITY_HARNESS_PATH. Safe to run twice.
  doctor [--binary PATH] [--harness-version V] [--smoke]
      Say which harness the client would run and why, its version and protocol, whether a key is
      set, and where the harness's own protocol description and the client disagree. --smoke runs
      one text turn and reports the time to the first text. Exits 0 when a turn can run.

Options:
  --json       print the result as JSON on stdout
  --help, -h   print this help
  --version    print this package's version
`;

/** Runs the command line; returns the exit code. Writes results to `stdout`, progress and errors to `stderr`. */
export async function runHarnessCli(
  argv: readonly string[],
  io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream & { isTTY?: boolean }; env?: Readonly<Record<string, string | undefined>> } = {
    stdout: process.stdout,
    stderr: process.stderr,
  },
): Promise<number> {
  // `--version` alone asks for ours; `install --version V` names a release.
  if (argv.some((argument, index) => argument === "--version" && (argv[index + 1] === undefined || argv[index + 1]?.startsWith("-") === true))) {
    io.stdout.write(`${HARNESS_PACKAGE_VERSION}\n`);
    return 0;
  }
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.stderr.write(`antigravity-harness: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help === true) {
    io.stdout.write(USAGE);
    return 0;
  }
  const env = io.env ?? process.env;
  const [command, ...rest] = positionals;
  if (rest.length > 0) {
    io.stderr.write(`antigravity-harness: unexpected argument ${JSON.stringify(rest[0])}\n`);
    return 2;
  }
  try {
    if (command === "install") return await install(values, io, env);
    if (command === "doctor") return await doctor(values, io, env);
  } catch (error) {
    // One line for the user; a bug still shows its class and message, never a stack.
    io.stderr.write(`antigravity-harness ${command ?? ""}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
  io.stderr.write(command === undefined ? USAGE : `antigravity-harness: unknown command ${JSON.stringify(command)}\n${USAGE}`);
  return 2;
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      help: { type: "boolean", short: "h" },
      version: { type: "string" },
      "index-url": { type: "string" },
      binary: { type: "string" },
      "harness-version": { type: "string" },
      smoke: { type: "boolean" },
      json: { type: "boolean" },
    },
  });
}

type Values = ReturnType<typeof parse>["values"];
type Io = NonNullable<Parameters<typeof runHarnessCli>[1]>;

async function install(values: Values, io: Io, env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const version = typeof values.version === "string" ? values.version : undefined;
  try {
    const result = await installHarness({ version, indexUrl: values["index-url"], env, onProgress: progressPrinter(io.stderr) });
    if (values.json === true) io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else io.stdout.write(`${result.status === "installed" ? "installed" : "already installed"}: google-antigravity ${result.version}\n  ${result.binary}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof PackageIndexError)) throw error;
    if (values.json === true) io.stdout.write(`${JSON.stringify({ status: "failed", reason: error.message }, null, 2)}\n`);
    io.stderr.write(`antigravity-harness install: ${error.message}\n`);
    return 1;
  }
}

async function doctor(values: Values, io: Io, env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const diagnosis = await diagnoseHarness({ binaryPath: values.binary, harnessVersion: values["harness-version"], env });
  let smoke: SmokeResult | undefined;
  if (values.smoke === true && diagnosis.problems.length === 0 && diagnosis.binary !== undefined) {
    smoke = await smokeTurn({ binaryPath: diagnosis.binary.path, harnessVersion: values["harness-version"], env });
    if (!smoke.ok) diagnosis.problems.push(`the smoke turn failed: ${smoke.error}`);
  }
  if (values.json === true) io.stdout.write(`${JSON.stringify({ ...diagnosis, ...(smoke === undefined ? {} : { smoke }), verdict: verdictLine(diagnosis) }, null, 2)}\n`);
  else io.stdout.write(report(diagnosis, smoke));
  return diagnosis.problems.length === 0 ? 0 : 1;
}

function report(diagnosis: HarnessDiagnosis, smoke: SmokeResult | undefined): string {
  const lines: string[] = [];
  const row = (label: string, text: string): void => void lines.push(`${label.padEnd(11)}${text}`);
  if (diagnosis.binary !== undefined) row("binary", `${diagnosis.binary.path} (${diagnosis.binary.emulator ? "the emulator, " : ""}found by ${diagnosis.binary.source})`);
  if (diagnosis.version !== undefined) row("version", `${diagnosis.version.version} (from ${diagnosis.version.reason})`);
  if (diagnosis.protocol !== undefined) row("protocol", `the client speaks ${diagnosis.protocol.version} (dialect ${diagnosis.protocol.dialect})`);
  row("key", diagnosis.key.set ? "GEMINI_API_KEY is set" : diagnosis.key.needed ? "GEMINI_API_KEY is not set" : "not needed (the emulator)");
  if (diagnosis.descriptor !== undefined) {
    const { harnessOnly, clientOnly } = diagnosis.descriptor;
    row("descriptor", harnessOnly.length === 0 && clientOnly.length === 0 ? `matches the client (${diagnosis.descriptor.path})` : diagnosis.descriptor.path);
    for (const path of harnessOnly) lines.push(`  harness has, client does not know: ${path}`);
    for (const path of clientOnly) lines.push(`  client would send, harness lacks: ${path}`);
  } else if (diagnosis.binary !== undefined && !diagnosis.binary.emulator) {
    row("descriptor", "not found beside the binary (install with antigravity-harness install to compare protocols)");
  }
  if (smoke !== undefined) row("smoke", smoke.ok ? `first text after ${smoke.firstTextMs} ms, turn done after ${smoke.totalMs} ms` : `failed: ${smoke.error}`);
  for (const warning of diagnosis.warnings) row("warning", warning);
  for (const problem of diagnosis.problems) row("problem", problem);
  row("verdict", diagnosis.problems.length === 0 ? "a turn can run" : "a turn cannot run");
  return `${lines.join("\n")}\n`;
}

/** Download progress on stderr: one updating line on a terminal, a line per 10 % otherwise. */
function progressPrinter(stderr: NodeJS.WritableStream & { isTTY?: boolean }): (progress: DownloadProgress) => void {
  let lastDecile = -1;
  let lastBytes = 0;
  return ({ received, total }) => {
    const megabytes = (received / 1_048_576).toFixed(1);
    if (total === undefined) {
      if (received - lastBytes < 10 * 1_048_576) return;
      lastBytes = received;
      stderr.write(`downloading: ${megabytes} MiB\n`);
      return;
    }
    const percent = Math.floor((received / total) * 100);
    if (stderr.isTTY === true) {
      stderr.write(`\rdownloading: ${percent}% of ${(total / 1_048_576).toFixed(1)} MiB${received === total ? "\n" : ""}`);
      return;
    }
    const decile = Math.floor(percent / 10);
    if (decile === lastDecile) return;
    lastDecile = decile;
    stderr.write(`downloading: ${percent}% (${megabytes} MiB)\n`);
  };
}
