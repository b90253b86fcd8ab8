import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { EmulatorError } from "../errors/emulator-error.js";
import { scenarioSchema, type Scenario } from "./scenario-schema.js";

export const defaultScenarioName = "demo";

/** The package's `scenarios/` folder: one level up from `dist/`, two from `src/scenario/`. */
function builtinScenarioDirectory(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const candidate of [join(here, "..", "scenarios"), join(here, "..", "..", "scenarios")]) {
    if (existsSync(join(candidate, `${defaultScenarioName}.json`))) return candidate;
  }
  return undefined;
}

function looksLikePath(reference: string): boolean {
  return reference.endsWith(".json") || reference.includes("/") || reference.includes("\\");
}

/** Validates scenario JSON; the error names every violation so a scenario author can fix it in one go. */
export function parseScenario(value: unknown, origin: string): Scenario {
  const result = scenarioSchema.safeParse(value);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ");
    throw new EmulatorError("SCENARIO_INVALID", `scenario ${origin} is invalid: ${issues}`);
  }
  return result.data;
}

const cache = new Map<string, Scenario>();

/**
 * Loads a scenario by builtin name (`demo`) or by JSON file path; results are cached per process.
 * A scenario with a `fallback` gets that scenario's rules after its own (chains allowed, cycles refused).
 */
export function loadScenario(reference: string, options: { cwd?: string } = {}): Scenario {
  return loadWithFallbacks(reference, options.cwd, []);
}

function loadWithFallbacks(reference: string, cwd: string | undefined, chain: readonly string[]): Scenario {
  const path = looksLikePath(reference)
    ? isAbsolute(reference)
      ? reference
      : resolve(cwd ?? process.cwd(), reference)
    : (() => {
        const directory = builtinScenarioDirectory();
        if (directory === undefined) throw new EmulatorError("SCENARIO_NOT_FOUND", "the built-in scenarios folder is missing");
        return join(directory, `${reference}.json`);
      })();
  if (chain.includes(path)) throw new EmulatorError("SCENARIO_INVALID", `scenario fallbacks form a cycle: ${[...chain, path].join(" -> ")}`);
  const cached = cache.get(path);
  if (cached !== undefined) return cached;
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new EmulatorError("SCENARIO_NOT_FOUND", `scenario "${reference}" not found (${path})`, { cause: error });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new EmulatorError("SCENARIO_INVALID", `scenario ${path} is not valid JSON`, { cause: error });
  }
  const parsed = parseScenario(json, path);
  const scenario =
    parsed.fallback === undefined
      ? parsed
      : { ...parsed, rules: [...parsed.rules, ...loadWithFallbacks(parsed.fallback, dirname(path), [...chain, path]).rules] };
  cache.set(path, scenario);
  return scenario;
}

/** The model name selects a scenario when it reads `emulator:<scenario>`. */
export function scenarioFromModelName(modelName: string | undefined): string | undefined {
  if (modelName === undefined || !modelName.startsWith("emulator:")) return undefined;
  const reference = modelName.slice("emulator:".length).trim();
  return reference === "" ? undefined : reference;
}
