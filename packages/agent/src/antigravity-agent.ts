import { AbstractAgent, type AgentCapabilities, type BaseEvent, type RunAgentInput } from "@ag-ui/client";
import { Observable } from "rxjs";
import { AgentCore, type AgentStats } from "./agent-core.js";
import type { AntigravityAgentOptions } from "./agent-options.js";

/**
 * An AG-UI agent backed by Google Antigravity. Every thread gets a live harness conversation
 * (pooled with others on shared harness processes); a turn can wait on a human across several runs.
 * Clones (one per HTTP request) share the sessions, the pool and the thread map.
 *
 * @example
 * const agent = new AntigravityAgent({ harness: "emulator", model: "emulator:demo" });
 * const app = createAntigravityApp({ chat: agent });
 */
export class AntigravityAgent extends AbstractAgent {
  private readonly core: AgentCore;

  constructor(options: AntigravityAgentOptions = {}) {
    super({
      ...(options.agentId === undefined ? {} : { agentId: options.agentId }),
      description: options.description ?? "A Google Antigravity agent",
    });
    this.core = new AgentCore(options);
  }

  /** Streams one run. Unsubscribing (a client disconnect) aborts it; a turn parked on a human stays parked. */
  run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable<BaseEvent>((subscriber) => {
      const controller = new AbortController();
      void (async () => {
        try {
          for await (const event of this.core.run(input, controller.signal)) {
            if (subscriber.closed) break;
            subscriber.next(event);
          }
          subscriber.complete();
        } catch (error) {
          subscriber.error(error);
        }
      })();
      return () => controller.abort();
    });
  }

  override async getCapabilities(): Promise<AgentCapabilities> {
    return this.core.capabilities();
  }

  override clone(): AntigravityAgent {
    const copy = super.clone() as AntigravityAgent;
    Object.defineProperty(copy, "core", { value: this.core, enumerable: false });
    return copy;
  }

  /** Sessions, parked sessions and remembered threads, for a `/metrics` route. */
  stats(): AgentStats {
    return this.core.stats();
  }

  /** The pool's metrics, once the pool exists. */
  async poolMetrics(): Promise<ReturnType<Awaited<ReturnType<AgentCore["pool"]>>["metrics"]>> {
    return (await this.core.pool()).metrics();
  }

  /** Closes every session and the agent's own pool (not a shared one). Idempotent. */
  close(options: { deadlineMs?: number } = {}): Promise<void> {
    return this.core.close(options);
  }
}
