import { FileThreadStore, RedisThreadStore, type ThreadStore } from "@ag-ui-antigravity/agent";
import { Lifetime } from "@ag-ui-antigravity/foundation";
import type { Logger } from "pino";

/** Where the demo keeps thread state: nothing (memory, the default), a save dir, or Redis. */
export interface StateStoreConfig {
  /** Conversations persist here; without Redis, the thread records (owners and transcripts with them) too. */
  saveDir?: string | undefined;
  /** Thread records (owners, transcripts, leases) in Redis (replicas sharing one save dir). */
  redisUrl?: string | undefined;
  /** This replica's name in thread leases. */
  replicaId?: string | undefined;
  /** How long after its last heartbeat a replica counts as dead; default the Redis store's. */
  replicaTtlMs?: number | undefined;
}

export interface StateStores {
  /**
   * Shared by every demo agent (entries are keyed by agent id); undefined: each agent's default. A
   * thread's one record: conversation, owner, transcript and lease; the binding asks the agents.
   */
  threadStore: ThreadStore | undefined;
  kind: "memory" | "file" | "redis";
  /** Closes the stores (a last write attempt) and the Redis connection. Idempotent. */
  close(): Promise<void>;
  /** Aborted when `close()` starts. */
  readonly signal: AbortSignal;
  /** Resolves when `close()` has finished. */
  readonly closed: Promise<void>;
}

/** The stores, closed once by `closeAll` when their owner closes them. */
function ownedStores(stores: Pick<StateStores, "threadStore" | "kind">, closeAll: () => Promise<void> = () => Promise.resolve()): StateStores {
  const lifetime = new Lifetime();
  return {
    ...stores,
    signal: lifetime.signal,
    closed: lifetime.closed,
    close: () => lifetime.close(() => new DOMException("The state stores were closed.", "AbortError"), closeAll),
  };
}

/**
 * The stores the demo's agents and router share. The embedded default needs no service: with no
 * REDIS_URL, `pnpm start` runs on memory (or files in SAVE_DIR) alone.
 */
export async function createStateStores(config: StateStoreConfig, logger: Logger): Promise<StateStores> {
  const storeLogger = { warn: (details: Record<string, unknown>, message: string) => logger.warn(details, message) };
  if (config.redisUrl !== undefined) {
    // Loaded only here: a server without REDIS_URL (the default) never pays for the Redis client.
    const { createClient } = await import("redis");
    // Commands fail at once while Redis is away (the stores retry writes and refuse reads) instead of queueing.
    const client = createClient({ url: config.redisUrl, disableOfflineQueue: true });
    // Without a listener a connection error would crash the process; reconnecting is the client's job.
    client.on("error", (error: unknown) => logger.warn({ err: error }, "Redis connection error"));
    await client.connect();
    const threadStore = new RedisThreadStore({ client, logger: storeLogger, ...(config.replicaId === undefined ? {} : { replicaId: config.replicaId }),
      ...(config.replicaTtlMs === undefined ? {} : { replicaTtlMs: config.replicaTtlMs }),
    });
    await threadStore.startHeartbeat();
    return ownedStores({ threadStore, kind: "redis" }, async () => {
      await threadStore.close();
      await client.close().catch(() => undefined);
    });
  }
  if (config.saveDir !== undefined) {
    const threadStore = new FileThreadStore({ directory: config.saveDir, logger: storeLogger });
    return ownedStores({ threadStore, kind: "file" }, () => threadStore.close());
  }
  return ownedStores({ threadStore: undefined, kind: "memory" });
}
