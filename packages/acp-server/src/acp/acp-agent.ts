import type { Logger } from "@ag-ui-antigravity/foundation";
import { agent, methods, PROTOCOL_VERSION, type AgentApp, type ClientCapabilities, type InitializeResponse, type SessionModeState } from "@agentclientprotocol/sdk";
import { packageVersion } from "../package-version.js";
import { isSessionModeId, SESSION_MODES, type SessionModeId } from "../permissions/session-modes.js";
import { AcpServerError } from "../sessions/acp-server-error.js";
import { sessionOpenConfig } from "../sessions/session-request.js";
import type { SessionRegistry } from "../sessions/session-registry.js";
import { toRequestError } from "./request-errors.js";

/** The package's name and version as ACP agent info. */
export const agentInfo = { name: "antigravity", title: "Google Antigravity", version: packageVersion };

/** What this agent offers, honestly: `session/load` only when sessions are kept on disk. */
export function initializeResponse(options: { loadSession: boolean }): InitializeResponse {
  return {
    protocolVersion: PROTOCOL_VERSION,
    agentCapabilities: {
      loadSession: options.loadSession,
      promptCapabilities: { image: true, audio: false, embeddedContext: true },
      mcpCapabilities: { http: true, sse: false },
      sessionCapabilities: { close: {}, additionalDirectories: {} },
    },
    authMethods: [],
    agentInfo,
  };
}

const modeState = (current: SessionModeId): SessionModeState => ({ currentModeId: current, availableModes: [...SESSION_MODES] });

/** Runs a handler, answering any failure as a JSON-RPC error written for the user. */
async function answered<T>(sessionId: string | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toRequestError(error, sessionId === undefined ? {} : { sessionId });
  }
}

/**
 * The ACP agent (the SDK's `AgentApp`) for ONE client connection, on the registry's sessions:
 * `initialize`, `session/new`, `session/load` (replays the session's transcript, then continues
 * its harness conversation), `session/prompt`, `session/cancel`, `session/set_mode` and
 * `session/close`. The SDK validates every request's params before a handler sees them.
 */
export function createAcpAgent(registry: SessionRegistry, options: { logger: Logger }): AgentApp {
  let capabilities: ClientCapabilities = {};
  const { logger } = options;
  return agent({ name: "antigravity-acp-server" })
    .onRequest(methods.agent.initialize, ({ params }) => {
      capabilities = params.clientCapabilities ?? {};
      logger.info({ client: params.clientInfo?.name }, `client ${params.clientInfo?.name ?? "(unnamed)"} ${params.clientInfo?.version ?? ""} connected`.trimEnd());
      return initializeResponse({ loadSession: registry.persistent });
    })
    .onRequest(methods.agent.session.new, ({ params, signal }) =>
      answered(undefined, async () => {
        const session = await registry.create(await sessionOpenConfig(params), { signal });
        logger.info({ sessionId: session.id }, `session ${session.id} opened in ${params.cwd}`);
        return { sessionId: session.id, modes: modeState(session.mode) };
      }),
    )
    .onRequest(methods.agent.session.load, ({ params, signal, client }) =>
      answered(params.sessionId, async () => {
        const { session, replay } = await registry.load(params.sessionId, await sessionOpenConfig(params), { signal });
        for (const update of replay) await client.notify(methods.client.session.update, { sessionId: session.id, update });
        logger.info({ sessionId: session.id }, `session ${session.id} loaded (${replay.length} updates replayed)`);
        return { modes: modeState(session.mode) };
      }),
    )
    .onRequest(methods.agent.session.prompt, ({ params, signal, client }) =>
      answered(params.sessionId, async () => {
        const session = await registry.resolve(params.sessionId, { signal });
        const stopReason = await session.prompt(params.prompt, { client, capabilities, signal }, (notification) => client.notify(methods.client.session.update, notification));
        return { stopReason };
      }),
    )
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      registry.find(params.sessionId)?.cancel();
    })
    .onRequest(methods.agent.session.setMode, ({ params, signal }) =>
      answered(params.sessionId, async () => {
        if (!isSessionModeId(params.modeId)) throw new AcpServerError("INVALID_REQUEST", `No mode ${JSON.stringify(params.modeId.slice(0, 100))}; the modes are ${SESSION_MODES.map((mode) => mode.id).join(", ")}.`);
        const session = await registry.resolve(params.sessionId, { signal });
        session.setMode(params.modeId);
        return {};
      }),
    )
    .onRequest(methods.agent.session.close, ({ params }) =>
      answered(params.sessionId, async () => {
        await registry.closeSession(params.sessionId);
        return {};
      }),
    );
}
