// Internal to the workspace: tsup inlines this package into every published build, so no published
// package depends on it. Nothing here is part of a public API. The shared public vocabulary (the
// logger contract, CodedError, the client error codes, the Redis client and thread types) is defined
// in @ag-ui-antigravity/core; it is re-exported below only so the workspace's code has one import
// for both, and each published package keeps core external (a dependency, one copy per install).
export type {
  AgentReadiness,
  ClientErrorCode,
  ClientErrorCodeInfo,
  CodedErrorOptions,
  ListedThread,
  LogFields,
  Logger,
  RedisCommandClient,
  ThreadClaim,
  ThreadHolding,
  ThreadHoldings,
  ThreadRecords,
  TranscriptMessage,
} from "@ag-ui-antigravity/core";
export { CLIENT_ERROR_CODES, CodedError, isClientErrorCode } from "@ag-ui-antigravity/core";
export { abortReason, throwIfAborted } from "./abort/abort-reason.js";
export { linkSignals } from "./abort/link-signals.js";
export type { LinkedSignal } from "./abort/link-signals.js";
export { pause, sleep } from "./abort/sleep.js";
export { Lifetime } from "./lifetime/lifetime.js";
export { createFileOnce } from "./files/create-file-once.js";
export { sendRedisCommand } from "./redis/redis-command.js";
export { keepsThreadRecords, RESUME_RUN_ID_PROP } from "./threads/thread-records.js";
export { brandClass, hasBrand } from "./errors/brand.js";
export { nameErrorClass } from "./errors/name-error-class.js";
export { loggedId, MAX_LOGGED_ID_LENGTH, shieldLogger, silentLogger } from "./logging/logger.js";
export { answersOfQuestionForm, questionFieldName, questionFormFields, questionFormMessage } from "./questions/question-form.js";
export type { FormQuestion, FormQuestionAnswer, QuestionFormField } from "./questions/question-form.js";
export { renderClientErrorCodeTable, runRefusalStatuses } from "./errors/client-error-code-table.js";
