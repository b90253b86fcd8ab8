// `@ag-ui-antigravity/harness-emulator`: a wire-faithful stand-in for localharness, driven by scenarios.
export { emulatorBinaryPath } from "./emulator-binary-path.js";
export { EmulatorError } from "./errors/emulator-error.js";
export type { EmulatorErrorCode, EmulatorErrorOptions } from "./errors/emulator-error.js";
export { readKnobs } from "./knobs/emulator-knobs.js";
export type { EmulatorKnobs } from "./knobs/emulator-knobs.js";
export { createStreamLogger, silentLogger } from "./logging/logger.js";
export type { EmulatorLogger, StderrLike } from "./logging/logger.js";
export { runEmulatorProcess } from "./process/run-emulator-process.js";
export type { EmulatorProcessOptions, RunningEmulator } from "./process/run-emulator-process.js";
export type { ProcessControl } from "./conversation/turn-context.js";
export { loadScenario, parseScenario } from "./scenario/scenario-loader.js";
export { ruleConditionSchema, scenarioActionSchema, scenarioRuleSchema, scenarioSchema } from "./scenario/scenario-schema.js";
export type { Scenario, ScenarioAction, ScenarioRule, RuleCondition } from "./scenario/scenario-schema.js";
export { sampleArguments } from "./scenario/schema-sample.js";
