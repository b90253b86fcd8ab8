import { HttpAgent, type BaseEvent, type Message, type RunAgentParameters, type State, type Tool } from "@ag-ui/client";
import { randomUUID } from "node:crypto";

/** What one `runAgent` saw: every event (after HttpAgent's verifier passed it), in order. */
export interface RecordedRun {
  events: BaseEvent[];
  types: string[];
  /** The assistant text streamed in this run, all messages joined. */
  text: string;
  /** The tool calls started in this run, with their arguments parsed. */
  toolCalls: { id: string; name: string; args: unknown }[];
  /** TOOL_CALL_RESULT contents by tool call id. */
  toolResults: Map<string, string>;
  finished: BaseEvent & { outcome?: { type: string; interrupts?: unknown[]; pendingToolCallIds?: string[] } };
}

/** A client of one feature route, on a fresh thread. */
export function clientFor(baseUrl: string, feature: string, options: { state?: State } = {}): HttpAgent {
  return new HttpAgent({ url: `${baseUrl}/${feature}`, threadId: `thread-${randomUUID()}`, ...(options.state === undefined ? {} : { initialState: options.state }) });
}

export function userMessage(content: string): Message {
  return { id: randomUUID(), role: "user", content };
}

export function toolMessage(toolCallId: string, content: string): Message {
  return { id: randomUUID(), role: "tool", toolCallId, content };
}

/**
 * Runs the agent once and records what happened. HttpAgent pipes every event through
 * `verifyEvents`, so a run that resolves here has a valid event sequence.
 */
export async function recordRun(agent: HttpAgent, parameters: RunAgentParameters = {}): Promise<RecordedRun> {
  const events: BaseEvent[] = [];
  await agent.runAgent(parameters, { onEvent: ({ event }) => void events.push(event) });
  const argsById = new Map<string, string>();
  const toolCalls: { id: string; name: string }[] = [];
  const toolResults = new Map<string, string>();
  let text = "";
  for (const event of events as (BaseEvent & Record<string, any>)[]) {
    if (event.type === "TEXT_MESSAGE_CONTENT") text += event.delta;
    if (event.type === "TOOL_CALL_START") toolCalls.push({ id: event.toolCallId, name: event.toolCallName });
    if (event.type === "TOOL_CALL_ARGS") argsById.set(event.toolCallId, (argsById.get(event.toolCallId) ?? "") + event.delta);
    if (event.type === "TOOL_CALL_RESULT") toolResults.set(event.toolCallId, event.content);
  }
  const finished = events.at(-1) as RecordedRun["finished"];
  return {
    events,
    types: events.map((event) => event.type),
    text,
    toolCalls: toolCalls.map((call) => ({ ...call, args: JSON.parse(argsById.get(call.id) ?? "null") as unknown })),
    toolResults,
    finished,
  };
}

/** Sends a user message and records the run. */
export function say(agent: HttpAgent, content: string, tools: Tool[] = []): Promise<RecordedRun> {
  agent.addMessage(userMessage(content));
  return recordRun(agent, { tools });
}
