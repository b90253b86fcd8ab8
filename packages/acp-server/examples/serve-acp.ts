// The README's library example, type-checked by `pnpm typecheck` (tsconfig.json includes examples/).
import { serveAcp, DEFAULT_ACP_BUILTIN_TOOLS } from "@ag-ui-antigravity/acp-server";
import { emulatorBinaryPath } from "@ag-ui-antigravity/harness-emulator/binary-path";

const server = await serveAcp({
  settings: {
    model: "emulator:demo",
    emulator: true,
    builtinTools: [...DEFAULT_ACP_BUILTIN_TOOLS],
    defaultMode: "ask",
    maxSessions: 16,
    idleTimeoutMs: 900_000,
    turnTimeoutMs: 1_800_000,
    permissionTimeoutMs: 1_800_000,
    stateDirectory: undefined, // temporary: no session/load
    systemInstructions: undefined,
  },
  binaryPath: emulatorBinaryPath(),
}); // serves process.stdin / process.stdout; pass `input` and `output` for other streams
await server.closed; // the client closed its end
