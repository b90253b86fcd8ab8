import type { CustomTool, ToolCallContext } from "../harness/harness-shapes.js";
import { abandonStatement, type InterruptAnswer } from "../interrupts/interrupt-answer.js";
import { serverToolInterrupt, type InterruptOptions } from "../interrupts/server-tool-interrupt.js";
import type { FrontendToolOutcome } from "../parking/parked-item.js";
import type { JsonSchema } from "../schema/schema-validator.js";
import { runInServerTool, type ServerToolScope } from "../server-tools/server-tool-scope.js";
import type { FrontendToolDefinition } from "../tools/frontend-tools.js";
import { appContextToolName, sharedStateToolName } from "./bridge-options.js";
import type { HandlerHost } from "./handler-host.js";

/*
 * The handlers of the bridge's own tools, the custom tools it gives the harness: a frontend tool's
 * call is told to the client and parked until a ToolMessage answers it (once per turn per arguments);
 * a server tool runs here, in a scope that lets it raise interrupts and use the shared state, with its
 * call and result told to the client; the silent tools answer from the shared state and context.
 * Apart from the bridge, which decides which tools exist (ToolCatalogue) and owns what they use.
 */

/** The custom tool for a client's tool: the call goes to the client, deduplicated per turn unless exempt. */
export function frontendTool(host: HandlerHost, definition: FrontendToolDefinition): CustomTool {
  const exempt = new Set(host.options.deduplicationExemptTools ?? []);
  return {
    name: definition.name,
    description: definition.description,
    parameters: definition.parameters,
    handler: (args, context) => {
      const dispatch = () => dispatchFrontendTool(host, definition.name, args, context);
      const turn = host.currentTurn();
      if (turn === undefined || host.options.deduplicateToolCalls === false || exempt.has(definition.name)) return dispatch();
      return turn.deduplicator.run(definition.name, args, dispatch);
    },
  };
}

async function dispatchFrontendTool(host: HandlerHost, toolName: string, args: Record<string, unknown>, context: ToolCallContext): Promise<string> {
  const toolCallId = context.callId === "" ? host.createId() : context.callId;
  host.notify({ type: "tool-call", source: "frontend", toolCallId, toolName, arguments: args });
  const { expiresAtMs } = host.desk.deadline();
  const outcome = await host.desk.parkWith<FrontendToolOutcome>(
    (settle, fail) => ({ kind: "frontend-tool", id: toolCallId, toolName, arguments: args, expiresAtMs, settle, fail }),
    context.signal,
  );
  if (outcome.type === "error") throw new Error(outcome.message);
  return outcome.type === "result" ? outcome.content : abandonStatement(outcome.cause);
}

/** The custom tool for a server tool: runs it in its scope and tells the client its call and result. */
export function serverTool(host: HandlerHost, tool: CustomTool): CustomTool {
  return {
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
    handler: async (args, context) => {
      const toolCallId = context.callId === "" ? host.createId() : context.callId;
      host.notify({ type: "tool-call", source: "server", toolCallId, toolName: tool.name, arguments: args });
      const scope = serverToolScope(host, toolCallId, tool.name);
      try {
        const result: unknown = await runInServerTool(scope, () => tool.handler(args, { ...context, callId: toolCallId }));
        host.notify({ type: "tool-result", toolCallId, toolName: tool.name, content: typeof result === "string" ? result : (JSON.stringify(result) ?? ""), output: result, failed: false });
        return result;
      } catch (error) {
        // The exception text goes to the model through the harness, not to the client.
        host.notify({ type: "tool-result", toolCallId, toolName: tool.name, content: `The tool ${tool.name} failed.`, failed: true });
        throw error;
      }
    },
  };
}

function serverToolScope(host: HandlerHost, toolCallId: string, toolName: string): ServerToolScope {
  return {
    toolCallId,
    toolName,
    raiseInterrupt: (reason, options, signal) => raiseServerInterrupt(host, toolCallId, reason, options, signal),
    readState: () => host.shared.readState(),
    writeState: (state) => host.shared.write(state),
    readContext: () => host.shared.readContext(),
  };
}

function raiseServerInterrupt(host: HandlerHost, toolCallId: string, reason: string, options: InterruptOptions, signal: AbortSignal | undefined): Promise<InterruptAnswer> {
  // AG-UI reserves the `core:` namespace for reasons the protocol itself defines.
  if (reason.trim() === "" || reason.startsWith("core:")) {
    return Promise.reject(new TypeError(`interrupt(): "${reason}" is not a usable reason; name it in your own namespace, e.g. "myapp:confirm".`));
  }
  if (options.responseSchema !== undefined) {
    const problem = host.validator.compileProblem(options.responseSchema as JsonSchema);
    if (problem !== undefined) return Promise.reject(new TypeError(`interrupt(): responseSchema is not a valid JSON Schema: ${problem}`));
  }
  const { expiresAt, expiresAtMs } = host.desk.deadline();
  const interrupt = serverToolInterrupt({ id: host.createId(), reason, toolCallId, expiresAt, options });
  host.notify({ type: "interrupt", interrupt });
  return host.desk.park({ kind: "server-interrupt", id: interrupt.id, interrupt }, expiresAtMs, signal);
}

/** The silent tools the options enable (`appContextTool`, `sharedStateTool`). */
export function silentTools(host: HandlerHost): CustomTool[] {
  const tools: CustomTool[] = [];
  if (host.options.appContextTool === true) {
    tools.push({
      name: appContextToolName,
      description: "Returns the context the application shares with you (what the user is looking at, settings).",
      parameters: { type: "object", properties: {} },
      handler: () => ({ context: structuredClone(host.shared.readContext()) }),
    });
  }
  if (host.options.sharedStateTool === true) {
    tools.push({
      name: sharedStateToolName,
      description: "Returns the application's current shared state, including edits the user made in the UI.",
      parameters: { type: "object", properties: {} },
      handler: () => ({ state: structuredClone(host.shared.readState() ?? null) }),
    });
  }
  return tools;
}
