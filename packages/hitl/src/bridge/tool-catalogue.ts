import type { Tool } from "@ag-ui/core";
import type { Logger } from "@ag-ui-antigravity/foundation";
import type { CustomTool } from "../harness/harness-shapes.js";
import { canonicalJson } from "../json/canonical-json.js";
import type { JsonSchema, SchemaValidator } from "../schema/schema-validator.js";
import { frontendToolDefinitions, type FrontendToolDefinition } from "../tools/frontend-tools.js";

/** What a `ToolCatalogue` is given by its bridge. */
export interface ToolCatalogueOptions {
  /** The host's server tools (`HitlBridgeOptions.serverTools`). */
  serverTools: readonly CustomTool[];
  /** Whether the client's tools are offered to the model (`HitlBridgeOptions.frontendTools`, default true). */
  frontendTools: boolean;
  validator: SchemaValidator;
  logger: Pick<Logger, "warn"> | undefined;
}

/** How the bridge turns each of its own tools into the custom tool the harness calls. */
export interface ToolHandlers {
  serverTool(tool: CustomTool): CustomTool;
  frontendTool(definition: FrontendToolDefinition): CustomTool;
  /** The silent tools the options enable, ready to register. */
  silentTools(): CustomTool[];
}

/** The harness tools `configure` assembled, and which of them are the bridge's own. */
export interface ConfiguredTools {
  customTools: CustomTool[];
  hostToolNames: ReadonlySet<string>;
  silentToolNames: ReadonlySet<string>;
}

/**
 * Which tools the harness conversation was last configured with: the server tools, the client's
 * frontend tools that were registered, the names of all the bridge's own tools, and the contract
 * (the client tools' canonical form) that says whether a run's tools need a new conversation.
 * Separate from the bridge because precedence on a name clash and the contract are rules about tools
 * alone, and the approval hook and the run's mirror filter read the same answers from here.
 */
export class ToolCatalogue {
  readonly #options: ToolCatalogueOptions;
  readonly #serverTools = new Map<string, CustomTool>();
  #frontendTools = new Map<string, FrontendToolDefinition>();
  #contract: string | undefined;
  /** The bridge's own tools the harness was last configured with (`harnessPieces`): their mirror steps are not passed on. */
  #hostToolNames: ReadonlySet<string> = new Set();

  constructor(options: ToolCatalogueOptions) {
    this.#options = options;
    for (const tool of options.serverTools) this.#serverTools.set(tool.name, tool);
  }

  /**
   * The custom tools for these client tools, each made by `handlers`: server tools first, then the
   * client's (a server tool of the same name wins), then the silent tools no other tool shadows.
   * Remembers them as what the harness is configured with.
   *
   * @throws HitlError INVALID_TOOL_SCHEMA naming the tool.
   */
  configure(clientTools: readonly Tool[], handlers: ToolHandlers): ConfiguredTools {
    const customTools: CustomTool[] = [];
    const hostToolNames = new Set<string>();
    const silentToolNames = new Set<string>();
    for (const tool of this.#serverTools.values()) {
      customTools.push(handlers.serverTool(tool));
      hostToolNames.add(tool.name);
    }
    this.#frontendTools = new Map();
    this.#contract = this.#contractOf(clientTools);
    if (this.#options.frontendTools) {
      for (const definition of frontendToolDefinitions(clientTools, this.#options.validator)) {
        if (this.#serverTools.has(definition.name)) {
          this.#options.logger?.warn({}, `Client tool ${definition.name} is shadowed by the server tool of the same name.`);
          continue;
        }
        this.#frontendTools.set(definition.name, definition);
        customTools.push(handlers.frontendTool(definition));
        hostToolNames.add(definition.name);
      }
    }
    for (const silent of handlers.silentTools()) {
      if (hostToolNames.has(silent.name)) continue;
      customTools.push(silent);
      hostToolNames.add(silent.name);
      silentToolNames.add(silent.name);
    }
    this.#hostToolNames = hostToolNames;
    return { customTools, hostToolNames, silentToolNames };
  }

  /**
   * Whether these client tools differ (name, description or schema, in any order) from the ones last
   * configured. Always false when frontend tools are off.
   *
   * @throws HitlError INVALID_TOOL_SCHEMA naming the tool.
   */
  changed(clientTools: readonly Tool[]): boolean {
    return this.#contractOf(clientTools) !== this.#contract;
  }

  /**
   * Checks a run's client tools as `configure` would (when frontend tools are on), without
   * configuring anything.
   *
   * @throws HitlError INVALID_TOOL_SCHEMA naming the tool.
   */
  check(clientTools: readonly Tool[]): void {
    if (this.#options.frontendTools) frontendToolDefinitions(clientTools, this.#options.validator);
  }

  /** Whether `name` is a client tool the harness was last configured with. */
  isFrontendTool(name: string): boolean {
    return this.#frontendTools.has(name);
  }

  /** The bridge's own tools (server, frontend, silent) the harness was last configured with. */
  hostToolNames(): ReadonlySet<string> {
    return this.#hostToolNames;
  }

  /** The arguments schema of the server tool named `name`, if there is one. */
  serverToolParameters(name: string): JsonSchema | undefined {
    return this.#serverTools.get(name)?.parameters;
  }

  #contractOf(clientTools: readonly Tool[]): string {
    if (!this.#options.frontendTools) return "";
    const definitions = frontendToolDefinitions(clientTools, this.#options.validator);
    return canonicalJson([...definitions].sort((left, right) => left.name.localeCompare(right.name)));
  }
}
