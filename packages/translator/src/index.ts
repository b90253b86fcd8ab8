export { StepTranslator } from "./translator/step-translator.js";
export type { HostToolCall, HostToolResult } from "./translator/step-translator.js";
export { STRUCTURED_OUTPUT_EVENT_NAME } from "./translator/translator-options.js";
export type { StepTranslatorOptions, UnmatchedSubagent } from "./translator/translator-options.js";
export { randomIds, sequentialIds } from "./ids/id-generator.js";
export type { IdGenerator, SequentialIdsOptions } from "./ids/id-generator.js";
export type { CumulativeUsage, UsageLabels } from "./usage/run-usage.js";
export { TranslatorError } from "./errors/translator-error.js";
export type { TranslatorErrorCode, TranslatorErrorOptions } from "./errors/translator-error.js";
