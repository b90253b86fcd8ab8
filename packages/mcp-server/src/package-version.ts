// tsup and vitest replace the identifier with package.json's version (their `define`), so the MCP
// handshake and `--version` name the release a user actually runs instead of a constant that drifts.
declare const __MCP_SERVER_VERSION__: string;

/** This package's version, as published. */
export const packageVersion: string = __MCP_SERVER_VERSION__;
