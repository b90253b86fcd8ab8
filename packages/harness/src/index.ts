export { HarnessError } from "./errors/harness-error.js";
export type { HarnessErrorCode, HarnessErrorOptions } from "./errors/harness-error.js";
export type {
  NormalizedStep,
  StepKind,
  StepQuestion,
  StepSource,
  StepStatus,
  StepTarget,
  StepToolCall,
} from "./steps/normalized-step.js";
export { StepNormalizer } from "./steps/step-normalizer.js";
export type { NormalizeOptions } from "./steps/step-normalizer.js";
