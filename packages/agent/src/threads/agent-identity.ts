import { resolve } from "node:path";
import { AgentError } from "../errors/agent-error.js";

/** The agent id threads are stored under when the agent has none and is not bound under a route name. */
export const DEFAULT_AGENT_ID = "agent";

/**
 * The id each live agent keeps its threads under, per store: a save dir (by its absolute path, the
 * default store's) or a store object passed in. Two live agents with one id on one store would
 * share records (one resuming the other's conversations): the second is refused.
 */
const idsInUse = new Map<unknown, Map<string, AgentIdentity>>();

/**
 * Which id an agent keeps its threads under, decided once: its `agentId`, else the route name it
 * is bound under (`createAntigravityApp({ chat: agent })`), else `"agent"`. Fixed by the first use
 * of the store (or the binding), and claimed on that store for as long as the agent lives, so two
 * agents never share records without being told: the second gets CONFIG_INVALID naming the clash.
 */
export class AgentIdentity {
  readonly #explicit: string | undefined;
  readonly #store: unknown;
  /** How the store is named in a refusal (a save dir's path, or "the thread store passed in"). */
  readonly #storeName: string;
  #routeName: string | undefined;
  #fixed: string | undefined;

  constructor(options: { agentId: string | undefined; store: { saveDir: string } | { object: object } | { private: true } }) {
    this.#explicit = options.agentId;
    if ("saveDir" in options.store) {
      this.#store = `file:${resolve(options.store.saveDir)}`;
      this.#storeName = `the save dir ${resolve(options.store.saveDir)}`;
    } else if ("object" in options.store) {
      this.#store = options.store.object;
      this.#storeName = "one thread store";
    } else {
      // The agent's own in-memory store: nobody else can share it.
      this.#store = undefined;
      this.#storeName = "";
    }
    if (this.#explicit !== undefined) this.#fix(this.#explicit);
  }

  /** The id, fixed from now on. Throws CONFIG_INVALID when another live agent keeps its threads under it on the same store. */
  get id(): string {
    return this.#fixed ?? this.#fix(this.#routeName ?? DEFAULT_AGENT_ID);
  }

  /**
   * The name the HTTP binding serves the agent under: the id, unless the agent has an `agentId` of
   * its own. Throws once the id is fixed to another name (the agent already served, or was bound
   * under two names), or when the name clashes on the store.
   */
  useRouteName(name: string): void {
    if (this.#explicit !== undefined) return;
    if (this.#fixed !== undefined && this.#fixed !== name) {
      throw new AgentError("CONFIG_INVALID", `This agent keeps its threads under ${JSON.stringify(this.#fixed)} already; it cannot also be bound as ${JSON.stringify(name)}. Give it an agentId, or bind each name its own agent.`);
    }
    this.#routeName = name;
    this.#fix(name);
  }

  /** Frees the id on its store (the agent closed). */
  release(): void {
    const fixed = this.#fixed;
    if (fixed === undefined || this.#store === undefined) return;
    const ids = idsInUse.get(this.#store);
    if (ids?.get(fixed) === this) ids.delete(fixed);
    if (ids?.size === 0) idsInUse.delete(this.#store);
  }

  #fix(id: string): string {
    if (this.#fixed === id) return id;
    if (this.#store !== undefined) {
      let ids = idsInUse.get(this.#store);
      if (ids === undefined) {
        ids = new Map();
        idsInUse.set(this.#store, ids);
      }
      const holder = ids.get(id);
      if (holder !== undefined && holder !== this) {
        throw new AgentError(
          "CONFIG_INVALID",
          `Two agents would share thread records: another live agent keeps its threads under the id ${JSON.stringify(id)} in ${this.#storeName}. Give each agent its own agentId (or serve each under its own name with createAntigravityApp).`,
        );
      }
      ids.set(id, this);
    }
    this.#fixed = id;
    return id;
  }
}
