import type { AssistantMessage, Message, ToolCall, ToolMessage, UserMessage } from "@ag-ui/client";
import type { FrontendTool } from "../features/frontendTools";

/** Tool results by the id of the call they answer. */
export function toolResultsById(messages: readonly Message[]): Map<string, ToolMessage> {
  const results = new Map<string, ToolMessage>();
  for (const message of messages) if (message.role === "tool") results.set(message.toolCallId, message);
  return results;
}

export function toolCallsOf(messages: readonly Message[]): ToolCall[] {
  return messages.flatMap((message) => (message.role === "assistant" ? ((message as AssistantMessage).toolCalls ?? []) : []));
}

/** Frontend tool calls the model made that no ToolMessage has answered yet, oldest first. */
export function unansweredFrontendCalls(messages: readonly Message[], tools: readonly FrontendTool[]): Array<{ call: ToolCall; tool: FrontendTool }> {
  const results = toolResultsById(messages);
  const pending: Array<{ call: ToolCall; tool: FrontendTool }> = [];
  for (const call of toolCallsOf(messages)) {
    const tool = tools.find((candidate) => candidate.definition.name === call.function.name);
    if (tool !== undefined && !results.has(call.id)) pending.push({ call, tool });
  }
  return pending;
}

/** The text of a user or tool message; media parts show as a placeholder. */
export function textOf(content: UserMessage["content"]): string {
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("");
}
