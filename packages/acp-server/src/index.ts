export { serveAcp } from "./serve-acp.js";
export type { AcpServer, ServeAcpOptions } from "./serve-acp.js";
export { DEFAULT_ACP_BUILTIN_TOOLS, validateAcpServerSettings } from "./server-settings.js";
export type { AcpServerSettings } from "./server-settings.js";
export { SESSION_MODE_IDS } from "./permissions/session-modes.js";
export type { SessionModeId } from "./permissions/session-modes.js";
export { AcpServerError } from "./sessions/acp-server-error.js";
export type { AcpServerErrorCode } from "./sessions/acp-server-error.js";
