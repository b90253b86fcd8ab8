import { randomUUID } from "node:crypto";
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import type { Tool } from "@ag-ui/client";
import { defaultModelFor, NEWEST_KNOWN_HARNESS_VERSION, type Conversation, type ToolCallContext, type Turn } from "@ag-ui-antigravity/harness";
import type { HarnessPool } from "@ag-ui-antigravity/pool";
import type { AntigravityAgentLogger, AntigravityAgentOptions } from "../agent-options.js";
import { AgentError } from "../errors/agent-error.js";
import { publicModelName } from "../errors/outbound-redaction.js";
import { baseConversationConfig, poolPartitionOf } from "../harness-config.js";
import type { HarnessFeatures } from "../hooks/harness-features.js";
import type { AgentIdentity } from "../threads/agent-identity.js";
import type { LeaseToken, ThreadKey, ThreadStore } from "../threads/store/thread-store.js";
import { AntigravitySession } from "./antigravity-session.js";
import type { SessionEnvironment, SessionIdentity, SessionSeed } from "./session-environment.js";
import { REFILL_DELAY_MS, SpareSessions } from "./spare-sessions.js";
import type { ThreadLeaseGuard } from "./thread-lease-guard.js";
import { ensureThreadWorkspace, threadWorkspacePath } from "./thread-workspace.js";
import { toolSignature } from "./tool-signature.js";

/** Defaults of the `prewarm` option. */
export const DEFAULT_PREWARM_SPARES = 1;
export const DEFAULT_PREWARM_IDLE_TIMEOUT_MS = 5 * 60_000;

/** The tools a run brings for its thread's session: their signature, and the client tools themselves. */
export interface ToolContract {
  signature: string;
  tools: readonly Tool[];
}

export interface SessionFactoryOptions {
  readonly options: AntigravityAgentOptions;
  readonly logger: AntigravityAgentLogger;
  readonly threads: ThreadStore;
  readonly identity: AgentIdentity;
  readonly leases: ThreadLeaseGuard;
  readonly features: HarnessFeatures;
  /** The harness pool (the agent creates its own on first use). */
  pool(): Promise<HarnessPool>;
  /** The harness binary the agent's own pool runs (unknown for a shared pool). */
  binaryPath(): string | undefined;
  /** A turn the harness started on its own on a session's conversation. */
  onBackgroundTurn(session: AntigravitySession, turn: Turn): void;
}

/**
 * Makes the sessions of the agent's threads: a thread's record read from the store (a resume by
 * conversation id), its lease taken, its workspace made, and, for a new thread, a spare whose
 * conversation is already open adopted when `prewarm` keeps some. It owns the spares, and the tool
 * contracts of runs whose session is being acquired (the session manager's `create` takes only the
 * thread id).
 */
export class SessionFactory {
  readonly #options: SessionFactoryOptions;
  readonly #spares: SpareSessions | undefined;
  /** Threads whose session is a spare taken for this run, and the contract to refill once the run ends. */
  readonly #sparesToRefill = new Map<string, string>();
  /** Tool contracts of runs whose session is being acquired, read by `create`. */
  readonly #pendingContracts = new Map<string, ToolContract>();
  #serverToolsSignature: string | undefined;
  /** What the harness said about itself when a conversation opened (its sandbox). */
  #sandbox: Conversation["sandboxStatus"];

  constructor(options: SessionFactoryOptions) {
    this.#options = options;
    const prewarm = options.options.prewarm;
    this.#spares =
      prewarm === undefined
        ? undefined
        : new SpareSessions({
            spares: prewarm.spares ?? DEFAULT_PREWARM_SPARES,
            idleTimeoutMs: prewarm.idleTimeoutMs ?? DEFAULT_PREWARM_IDLE_TIMEOUT_MS,
            refillDelayMs: REFILL_DELAY_MS,
            open: (signature, tools, signal) => this.#openSpare(signature, tools, signal),
            warn: (details, message) => options.logger.warn?.(details, message),
          });
  }

  /** What the harness said of its sandbox when a conversation last opened. */
  get sandbox(): Conversation["sandboxStatus"] {
    return this.#sandbox;
  }

  /** Spare sessions ready for new threads. */
  get readySpares(): number {
    return this.#spares?.ready ?? 0;
  }

  /** The tool contract of a run bringing `tools`; a run with no frontend tools (most) has the server tools' signature, hashed once. */
  contractFor(tools: readonly Tool[]): ToolContract {
    const serverTools = this.#options.options.serverTools ?? [];
    const signature = tools.length === 0 ? (this.#serverToolsSignature ??= toolSignature(serverTools)) : toolSignature([...serverTools, ...tools]);
    return { signature, tools };
  }

  /** The contract the session `create` makes for `threadId` is opened with, until `forgetContract`. */
  expectContract(threadId: string, contract: ToolContract): void {
    this.#pendingContracts.set(threadId, contract);
  }

  forgetContract(threadId: string): void {
    this.#pendingContracts.delete(threadId);
  }

  /**
   * Holds spares back until released: a run that has no session and conversation yet must not
   * find the harness taken by a spare opened ahead of it. Undefined without `prewarm`.
   */
  holdSpares(): { release(): void } | undefined {
    return this.#spares?.hold();
  }

  /** Refills the spare a run on `threadId` took, once that run no longer waits for its session. */
  refillSpareTakenBy(threadId: string): void {
    const signature = this.#sparesToRefill.get(threadId);
    if (signature === undefined) return;
    this.#sparesToRefill.delete(threadId);
    // Opened later, once no run waits for its session (see SpareSessions).
    this.#spares?.refill(signature);
  }

  /** Closes the spares (the sessions of threads are the session manager's). */
  async close(): Promise<void> {
    await this.#spares?.close();
  }

  /** The session manager's `create`: the thread's session, resumed from its record or new. */
  async create(threadId: string, signal: AbortSignal): Promise<AntigravitySession> {
    const contract = this.#pendingContracts.get(threadId) ?? { signature: "", tools: [] };
    const { leases, threads, identity, options } = this.#options;
    const key: ThreadKey = { agentId: identity.id, threadId };
    const lease = await leases.take(threadId, signal);
    let record;
    try {
      record = await readStore(() => threads.get(key));
    } catch (error) {
      await leases.giveBack(threadId, lease);
      throw error;
    }
    // A new thread (no conversation yet) takes a spare whose conversation is already open, when there is one.
    if (record?.conversationId === undefined && this.#spares !== undefined) {
      const spare = this.#spares.take(contract.signature, contract.tools);
      if (spare !== undefined) this.#sparesToRefill.set(threadId, contract.signature);
      if (spare !== undefined && (await this.#adoptSpare(spare, threadId, lease))) return spare;
    }
    const workspace = options.workspaceRoot === undefined ? undefined : await ensureThreadWorkspace(options.workspaceRoot, threadId, identity.id);
    // A thread whose tool contract changed resumes its conversation but rebuilds it with the new tools.
    return this.#newSession(
      { threadId, workspace },
      {
        ...(record?.conversationId === undefined ? {} : { conversationId: record.conversationId }),
        forwarded: record?.forwarded ?? [],
        toolSignature: contract.signature,
        ...(record?.summary === undefined ? {} : { summary: record.summary }),
        ...(record === undefined ? {} : { createdAt: record.createdAt }),
        ...(lease === undefined ? {} : { lease }),
      },
    );
  }

  /**
   * A session for no thread yet, its conversation open with `tools`. With a workspace root it works
   * in a directory of its own, which the adopting thread's workspace path will point to.
   */
  async #openSpare(signature: string, tools: readonly Tool[], signal: AbortSignal): Promise<AntigravitySession | undefined> {
    // A spare waits for no room and takes no thread's: it is opened only into a free slot.
    const pool = await this.#options.pool();
    if (!pool.hasRoomFor(poolPartitionOf(this.#options.options), { reclaim: false })) return undefined;
    const root = this.#options.options.workspaceRoot;
    const spareId = randomUUID();
    const workspace = root === undefined ? undefined : join(root, `.spare-${spareId}`);
    if (workspace !== undefined) await mkdir(workspace, { recursive: true });
    const session = await this.#newSession({ threadId: `spare-${spareId}`, workspace }, { forwarded: [], toolSignature: signature, spare: { workspace } });
    try {
      await session.openConversation(tools, { signal });
    } catch (error) {
      await session.close("evicted");
      throw error;
    }
    // Until a thread takes it, its slot goes first to a thread that needs one.
    session.offerToPool(() => this.#spares?.discard(session) ?? false);
    return session;
  }

  /** Gives a spare to a new thread; false (and the spare closed) when the thread's workspace path is taken. */
  async #adoptSpare(spare: AntigravitySession, threadId: string, lease: LeaseToken | undefined): Promise<boolean> {
    const root = this.#options.options.workspaceRoot;
    const spareWorkspace = spare.identity.workspace;
    let workspace: string | undefined;
    if (root !== undefined && spareWorkspace !== undefined) {
      workspace = threadWorkspacePath(root, threadId, this.#options.identity.id);
      try {
        await symlink(spareWorkspace, workspace, "dir");
      } catch (error) {
        this.#options.logger.debug?.({ threadId, error }, "the thread already has a workspace; it gets a conversation of its own instead of a spare");
        await spare.close("evicted");
        return false;
      }
    }
    spare.adopt(threadId, workspace, lease);
    return true;
  }

  async #newSession(identity: SessionIdentity, seed: SessionSeed): Promise<AntigravitySession> {
    const { options, logger } = this.#options;
    const pool = await this.#options.pool();
    const observers = await this.#options.features.observers(this.#options.binaryPath());
    // Server tools learn whose thread they serve (and its workspace) when they are called; the model never sees either.
    const serverTools = (options.serverTools ?? []).map((tool) => ({
      ...tool,
      handler: (args: Record<string, unknown>, context: ToolCallContext) =>
        tool.handler(args, { ...context, threadId: identity.threadId, ...(identity.workspace === undefined ? {} : { workspace: identity.workspace }) }),
    }));
    const environment: SessionEnvironment = {
      pool,
      threadStore: this.#options.threads,
      threadKey: { agentId: this.#options.identity.id, threadId: identity.threadId },
      baseConfig: baseConversationConfig(options),
      partition: poolPartitionOf(options),
      bridgeOptions: {
        toolApproval: options.toolApproval !== undefined && options.toolApproval !== false,
        ...(typeof options.toolApproval === "object" && options.toolApproval.exempt !== undefined ? { autoApproveTools: options.toolApproval.exempt } : {}),
        serverTools,
        deduplicateToolCalls: options.deduplicateToolCalls ?? true,
        appContextTool: options.hitl?.contextTools ?? false,
        sharedStateTool: options.hitl?.contextTools ?? false,
        turnSummary: options.hitl?.turnSummary ?? false,
        ...(options.hitl?.newInputWhileParked === undefined ? {} : { newInputWhileParked: options.hitl.newInputWhileParked }),
        ...(options.hitl?.settleMs === undefined ? {} : { settleMs: options.hitl.settleMs }),
        ...(options.sessions?.parkedTimeoutMs === undefined ? {} : { parkTimeoutMs: options.sessions.parkedTimeoutMs }),
        logger: { warn: (fields, message) => logger.warn?.({ threadId: identity.threadId, ...fields }, message) },
      },
      structuredOutputAs: options.structuredOutputAs ?? "state",
      structuredOutputKey: options.structuredOutputKey ?? options.agentId ?? "antigravity",
      // Shown to clients in RUN_FINISHED's usage; an emulator scenario's path is the server's business.
      model: publicModelName(options.model ?? defaultModelFor(NEWEST_KNOWN_HARNESS_VERSION)),
      workspaceFor: async () => identity.workspace,
      warn: (details, message) => logger.warn?.(details, message),
      observers,
      subagents: (options.subagents ?? []).map((subagent) => ({ name: subagent.name, description: subagent.description })),
      onConversationOpened: (conversation) => {
        if (conversation.sandboxStatus !== undefined) this.#sandbox = conversation.sandboxStatus;
      },
      onBackgroundTurn: (session, turn) => this.#options.onBackgroundTurn(session, turn),
    };
    return new AntigravitySession(identity, seed, environment);
  }
}

/** A store that cannot be read refuses the run with a clear code instead of AGENT_ERROR. */
async function readStore<Result>(read: () => Promise<Result>): Promise<Result> {
  try {
    return await read();
  } catch (error) {
    throw new AgentError("THREAD_STORE_UNAVAILABLE", "The thread store cannot be reached; try again shortly.", { cause: error });
  }
}
