// Internal to the workspace: tsup inlines this package into every published build, so no published
// package depends on it. Nothing here is part of a public API unless a package re-exports it.
export { abortReason, throwIfAborted } from "./abort/abort-reason.js";
export { linkSignals } from "./abort/link-signals.js";
export type { LinkedSignal } from "./abort/link-signals.js";
export { pause, sleep } from "./abort/sleep.js";
export { Lifetime } from "./lifetime/lifetime.js";
export { createFileOnce } from "./files/create-file-once.js";
export { sendRedisCommand } from "./redis/redis-command.js";
export type { RedisCommandClient } from "./redis/redis-command.js";
export type { ThreadHolding, ThreadHoldings } from "./holdings/thread-holdings.js";
export { keepsThreadRecords, RESUME_RUN_ID_PROP } from "./threads/thread-records.js";
export type { ListedThread, ThreadClaim, ThreadRecords, TranscriptMessage } from "./threads/thread-records.js";
export { brandClass, hasBrand } from "./errors/brand.js";
export { CodedError, nameErrorClass } from "./errors/coded-error.js";
export type { CodedErrorOptions } from "./errors/coded-error.js";
export { loggedId, MAX_LOGGED_ID_LENGTH, shieldLogger, silentLogger } from "./logging/logger.js";
export type { LogFields, Logger } from "./logging/logger.js";
export { answersOfQuestionForm, questionFieldName, questionFormFields, questionFormMessage } from "./questions/question-form.js";
export type { FormQuestion, FormQuestionAnswer, QuestionFormField } from "./questions/question-form.js";
export { CLIENT_ERROR_CODES, isClientErrorCode, renderClientErrorCodeTable, runRefusalStatuses } from "./errors/client-error-codes.js";
export type { ClientErrorCode, ClientErrorCodeInfo } from "./errors/client-error-codes.js";
export type { AgentReadiness } from "./readiness/agent-readiness.js";
