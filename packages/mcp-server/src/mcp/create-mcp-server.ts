import { randomUUID } from "node:crypto";
import { linkSignals } from "@ag-ui-antigravity/foundation";
import { HarnessError } from "@ag-ui-antigravity/harness";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod/v4";
import type { TurnInteraction } from "../hitl/turn-interaction.js";
import { packageVersion } from "../package-version.js";
import { McpServerError } from "../sessions/mcp-server-error.js";
import type { SessionRegistry } from "../sessions/session-registry.js";
import { progressMessageOf } from "./progress-messages.js";

/** How long an elicitation (a question or an approval) may wait for its human. */
const elicitationTimeoutMs = 30 * 60_000;

const usageShape = {
  promptTokens: z.number(),
  candidatesTokens: z.number(),
  thoughtsTokens: z.number(),
  totalTokens: z.number(),
};

const sessionShape = {
  sessionId: z.string(),
  busy: z.boolean(),
  turns: z.number(),
  createdAt: z.string(),
  lastActiveAt: z.string(),
  lastReply: z.string(),
};

/** The package's name and version as MCP server info. */
export const serverInfo = { name: "antigravity", version: packageVersion };

/** Options of `createAntigravityMcpServer`. */
export interface AntigravityMcpServerOptions {
  /**
   * Who this client is, for the sessions it may see and use: clients with the same owner share
   * their sessions (`serveHttp` gives the clients of one `authTokens` token the same owner). Default:
   * a new owner of its own, so the client sees only the sessions it opens.
   */
  owner?: string;
}

/**
 * An MCP server (the SDK's `McpServer`) for ONE MCP client connection, exposing the registry's
 * sessions as tools: `run_turn`, `list_sessions`, `close_session`. Connect it to a transport; make
 * one per client, all on the same registry, so clients share the pool. A client sees and reaches
 * only its own sessions (its `owner`'s), unless the registry's settings share them. The sessions
 * this client opens close when its connection does, unless it asked to keep them.
 */
export function createAntigravityMcpServer(registry: SessionRegistry, options: AntigravityMcpServerOptions = {}): McpServer {
  const owner = options.owner ?? `client:${randomUUID()}`;
  /** Sessions this client opened without `keepSession`: they end with its connection. */
  const opened = new Set<string>();
  const server = new McpServer(serverInfo, {
    instructions:
      "Runs Google Antigravity agent turns. Call run_turn with a message to start a session (its sessionId comes back), then again with that sessionId to continue the same conversation with its history. The agent may ask questions or approvals through elicitation.",
  });

  server.registerTool(
    "run_turn",
    {
      title: "Run an Antigravity turn",
      description:
        "Sends a message to an Antigravity agent session and returns its reply. Without sessionId a new session is started; with one, that conversation continues with its history. Progress notifications stream while the turn runs when the request carries a progressToken.",
      inputSchema: {
        message: z.string().min(1).max(100_000).describe("What to tell the agent."),
        sessionId: z.string().min(1).max(200).optional().describe("A session from an earlier run_turn or list_sessions; omit to start a new session."),
        keepSession: z
          .boolean()
          .optional()
          .describe("With a new session: keep it open after this client disconnects (it then closes when idle). Default false: it closes with this client."),
      },
      outputSchema: {
        sessionId: z.string(),
        reply: z.string(),
        cancelled: z.boolean(),
        usage: z.object(usageShape),
        notes: z.array(z.string()),
      },
      annotations: { readOnlyHint: false, openWorldHint: true },
    },
    async ({ message, sessionId, keepSession }, extra): Promise<CallToolResult> =>
      asToolResult(async () => {
        const session = sessionId === undefined ? await registry.create({ signal: extra.signal, owner }) : registry.get(sessionId, owner);
        if (sessionId === undefined && keepSession !== true) opened.add(session.id);
        const progressToken = extra._meta?.progressToken;
        const seen = new Set<string>();
        let progress = 0;
        const canElicit = server.server.getClientCapabilities()?.elicitation !== undefined;
        const interaction: Omit<TurnInteraction, "notes"> = {
          signal: extra.signal,
          elicit: canElicit
            ? async (form, options) => {
                // Linked, not AbortSignal.any: the session's signal outlives every question (linkSignals).
                const link = linkSignals([options.signal, extra.signal]);
                try {
                  return await server.server.elicitInput(form, { relatedRequestId: extra.requestId, signal: link.signal, timeout: elicitationTimeoutMs });
                } finally {
                  link.unlink();
                }
              }
            : undefined,
        };
        const outcome = await withSessionNamed(session.id, () => session.runTurn(message, {
          interaction,
          signal: extra.signal,
          onStep: (step) => {
            if (progressToken === undefined) return;
            const line = progressMessageOf(step, seen);
            if (line === undefined) return;
            progress += 1;
            // Progress is best effort: a client that went away must not fail the turn.
            void extra.sendNotification({ method: "notifications/progress", params: { progressToken, progress, message: line } }).catch(() => undefined);
          },
        }));
        const usage = {
          promptTokens: outcome.usage.promptTokens,
          candidatesTokens: outcome.usage.candidatesTokens,
          thoughtsTokens: outcome.usage.thoughtsTokens,
          totalTokens: outcome.usage.totalTokens,
        };
        const structured = { sessionId: session.id, reply: outcome.reply, cancelled: outcome.cancelled, usage, notes: outcome.notes };
        const text = [outcome.reply, ...outcome.notes.map((note) => `[note] ${note}`), `[session ${session.id}${outcome.cancelled ? ", turn cancelled" : ""}]`].filter((line) => line !== "").join("\n\n");
        return { content: [{ type: "text", text }], structuredContent: structured };
      }),
  );

  server.registerTool(
    "list_sessions",
    {
      title: "List Antigravity sessions",
      description: "Lists your open sessions: the ones this client (or its token) opened.",
      inputSchema: {},
      outputSchema: { sessions: z.array(z.object(sessionShape)) },
      annotations: { readOnlyHint: true },
    },
    async (): Promise<CallToolResult> =>
      asToolResult(async () => {
        const sessions = registry.list(owner).map((session) => session.summary());
        const text = sessions.length === 0 ? "No open sessions." : sessions.map((session) => `${session.sessionId}: ${session.turns} turn(s)${session.busy ? ", running" : ""}`).join("\n");
        return { content: [{ type: "text", text }], structuredContent: { sessions } };
      }),
  );

  server.registerTool(
    "close_session",
    {
      title: "Close an Antigravity session",
      description: "Ends a session: a running turn is cancelled and the conversation is closed.",
      inputSchema: { sessionId: z.string().min(1).max(200).describe("The session to close.") },
      outputSchema: { sessionId: z.string(), closed: z.boolean() },
      annotations: { destructiveHint: true, idempotentHint: false },
    },
    async ({ sessionId }): Promise<CallToolResult> =>
      asToolResult(async () => {
        await registry.closeSession(sessionId, owner);
        return { content: [{ type: "text", text: `Session ${sessionId} closed.` }], structuredContent: { sessionId, closed: true } };
      }),
  );

  // The connection ended (a DELETE, an idle client expired, the server closing): its sessions go.
  server.server.onclose = () => {
    for (const id of opened) registry.closeSession(id, owner).catch(() => undefined);
    opened.clear();
  };
  return server;
}

/** A failed turn still names its session, which stays open: a new session must not go unseen. */
async function withSessionNamed<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new TurnFailure(sessionId, error);
  }
}

class TurnFailure extends Error {
  constructor(
    readonly sessionId: string,
    override readonly cause: unknown,
  ) {
    super(`turn of session ${sessionId} failed`);
  }
}

/** Failures become tool results with `isError` and a message for the caller, never protocol errors. */
async function asToolResult(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    return { isError: true, content: [{ type: "text", text: describeFailure(error) }] };
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof TurnFailure) return `${describeFailure(error.cause)}\n\n[session ${error.sessionId}]`;
  if (McpServerError.isInstance(error)) return `${error.code}: ${error.message}`;
  if (HarnessError.isInstance(error)) {
    const subject = error.code === "MCP_LOAD_FAILED" ? ` (MCP server ${error.subject ?? ""})` : "";
    return `${error.code}${subject}: the Antigravity turn failed: ${error.message}`;
  }
  const code = typeof (error as { code?: unknown })?.code === "string" ? `${(error as { code: string }).code}: ` : "";
  return `${code}${error instanceof Error ? error.message : String(error)}`;
}
