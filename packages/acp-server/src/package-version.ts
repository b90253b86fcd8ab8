// tsup and vitest replace the identifier with package.json's version (their `define`), so the ACP
// handshake (`agentInfo`) and `--version` name the release a user actually runs.
declare const __ACP_SERVER_VERSION__: string;

/** This package's version, as published. */
export const packageVersion: string = __ACP_SERVER_VERSION__;
