import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { delimiter, join } from "node:path";
import { HarnessError } from "../errors/harness-error.js";
import { harnessCacheDirectory, newestInstalledBinary } from "../install/harness-cache.js";
import { throwIfAborted } from "@ag-ui-antigravity/foundation";
import { minimalEnvironment } from "./minimal-environment.js";

/** Where `findHarnessBinary` looks for localharness, in the order it tries them. */
export interface FindHarnessBinaryOptions {
  /** Used as is when given (it must exist). */
  explicitPath?: string;
  /** Where ANTIGRAVITY_HARNESS_PATH and PATH are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Abandons the search (and kills the Python query): it rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The Python interpreter asked for its site-packages (default `python3`). */
  pythonExecutable?: string;
  /** Bound on the Python query (default 5 s); a hung interpreter must not hang discovery. */
  pythonTimeoutMs?: number;
  /** Where `antigravity-harness install` put its binaries (default `$XDG_CACHE_HOME/ag-ui-antigravity/harness`). */
  cacheDirectory?: string;
}

/** Where discovery found the binary. */
export type HarnessBinarySource = "explicit path" | "ANTIGRAVITY_HARNESS_PATH" | "antigravity-harness install" | "python site-packages" | "PATH";

/** The binary discovery found, and where. */
export interface FoundHarnessBinary {
  /** The binary: the explicit path or ANTIGRAVITY_HARNESS_PATH as given, else the file found in the directory searched. */
  path: string;
  /** Which step of the search found it. */
  source: HarnessBinarySource;
}

const BINARY_NAME = process.platform === "win32" ? "localharness.exe" : "localharness";
const WHEEL_RELATIVE_PATH = join("google", "antigravity", "bin", BINARY_NAME);
const INSTALL_HINT =
  "Install it with `npx antigravity-harness install` (or `pip install google-antigravity`: the wheel ships the binary), " +
  "set ANTIGRAVITY_HARNESS_PATH, or point binaryPath at the harness emulator (`@ag-ui-antigravity/harness-emulator`) for tests.";

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    const info = await stat(path);
    if (!info.isFile()) return false;
    // A Node script (the emulator) runs through this Node, so it needs no execute bit.
    if (process.platform !== "win32" && !/\.(c|m)?js$/.test(path)) await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** site.getsitepackages() plus the user site, as python3 reports them; [] when Python is missing or slow. */
function pythonSitePackages(options: FindHarnessBinaryOptions, env: NodeJS.ProcessEnv): Promise<string[]> {
  const script =
    "import json, site\n" +
    "paths = list(getattr(site, 'getsitepackages', lambda: [])())\n" +
    "user = site.getusersitepackages() if hasattr(site, 'getusersitepackages') else None\n" +
    "paths += [user] if isinstance(user, str) else []\n" +
    "print(json.dumps(paths))";
  return new Promise((resolve) => {
    execFile(
      options.pythonExecutable ?? "python3",
      ["-c", script],
      {
        env: minimalEnvironment({ source: env, inherit: ["PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "VIRTUAL_ENV"] }),
        timeout: options.pythonTimeoutMs ?? 5_000,
        killSignal: "SIGKILL",
        windowsHide: true,
        maxBuffer: 1024 * 1024,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      },
      (error, stdout) => {
        if (error) {
          resolve([]);
          return;
        }
        try {
          const parsed: unknown = JSON.parse(String(stdout));
          resolve(Array.isArray(parsed) ? parsed.filter((entry): entry is string => typeof entry === "string") : []);
        } catch {
          resolve([]);
        }
      },
    );
  });
}

/**
 * Finds the localharness binary: the explicit path, then ANTIGRAVITY_HARNESS_PATH, then the newest
 * version `antigravity-harness install` put in the user's cache, then
 * `google/antigravity/bin/localharness` under each python3 site-packages directory, then
 * `localharness` on PATH. Throws HARNESS_NOT_FOUND listing every place it looked.
 *
 * @example
 * const binaryPath = await findHarnessBinary({ signal: AbortSignal.timeout(10_000) });
 */
export async function findHarnessBinary(options: FindHarnessBinaryOptions = {}): Promise<string> {
  return (await locateHarnessBinary(options)).path;
}

/** `findHarnessBinary`, also saying where the binary was found (what `antigravity-harness doctor` reports). */
export async function locateHarnessBinary(options: FindHarnessBinaryOptions = {}): Promise<FoundHarnessBinary> {
  const env = options.env ?? process.env;
  throwIfAborted(options.signal);
  const searched: string[] = [];

  // An explicitly chosen binary that is missing is a configuration error, not a reason to run another one.
  for (const [label, candidate] of [
    ["explicit path", options.explicitPath],
    ["ANTIGRAVITY_HARNESS_PATH", env.ANTIGRAVITY_HARNESS_PATH],
  ] as const) {
    if (candidate === undefined || candidate === "") continue;
    if (await isExecutableFile(candidate)) return { path: candidate, source: label === "explicit path" ? "explicit path" : "ANTIGRAVITY_HARNESS_PATH" };
    throw new HarnessError("HARNESS_NOT_FOUND", `localharness not found: the ${label} ${candidate} is not an executable file. ${INSTALL_HINT}`);
  }
  searched.push("explicit path (not given)", "ANTIGRAVITY_HARNESS_PATH (not set)");

  const cacheDirectory = options.cacheDirectory ?? harnessCacheDirectory(env);
  const installed = newestInstalledBinary(cacheDirectory);
  if (installed !== undefined && (await isExecutableFile(installed))) return { path: installed, source: "antigravity-harness install" };
  searched.push(`${cacheDirectory} (antigravity-harness install: nothing installed)`);

  const sitePackages = await pythonSitePackages(options, env);
  throwIfAborted(options.signal);
  if (sitePackages.length === 0) searched.push(`python3 site-packages (${options.pythonExecutable ?? "python3"} unavailable or reported none)`);
  for (const directory of sitePackages) {
    const candidate = join(directory, WHEEL_RELATIVE_PATH);
    searched.push(candidate);
    if (await isExecutableFile(candidate)) return { path: candidate, source: "python site-packages" };
  }

  for (const directory of (env.PATH ?? "").split(delimiter).filter((entry) => entry !== "")) {
    const candidate = join(directory, BINARY_NAME);
    searched.push(candidate);
    if (await isExecutableFile(candidate)) return { path: candidate, source: "PATH" };
  }
  if ((env.PATH ?? "") === "") searched.push("PATH (empty)");

  throw new HarnessError("HARNESS_NOT_FOUND", `localharness not found. Searched:\n  - ${searched.join("\n  - ")}\n${INSTALL_HINT}`);
}
