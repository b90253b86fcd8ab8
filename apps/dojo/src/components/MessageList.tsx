import type { Message } from "@ag-ui/client";
import { textOf, toolResultsById } from "../agent/conversation";
import type { AgentSession } from "../agent/useAgentSession";
import type { Feature } from "../features/featureCatalog";
import { ActivityCard } from "./ActivityCard";
import { ReasoningBlock } from "./ReasoningBlock";
import { ToolCallView } from "./ToolCallView";

interface MessageListProps {
  feature: Feature;
  session: AgentSession;
}

export function MessageList({ feature, session }: MessageListProps) {
  const results = toolResultsById(session.messages);
  const lastMessage = session.messages.at(-1);
  if (session.messages.length === 0) {
    return (
      <div className="empty-chat" data-testid="empty-chat">
        Start the conversation below, or pick a suggestion.
      </div>
    );
  }
  return (
    <ol className="message-list" data-testid="message-list">
      {session.messages.map((message) => (
        <MessageItem key={message.id} message={message} feature={feature} session={session} results={results} streaming={session.isRunning && message === lastMessage} />
      ))}
      {session.isRunning && lastMessage?.role !== "assistant" && lastMessage?.role !== "reasoning" && (
        <li className="typing-indicator" data-testid="typing-indicator" aria-label="The agent is working">
          <span />
          <span />
          <span />
        </li>
      )}
    </ol>
  );
}

interface MessageItemProps {
  message: Message;
  feature: Feature;
  session: AgentSession;
  results: ReturnType<typeof toolResultsById>;
  streaming: boolean;
}

function MessageItem({ message, feature, session, results, streaming }: MessageItemProps) {
  switch (message.role) {
    case "user":
      return (
        <li className="message user" data-testid="user-message">
          <div className="bubble">{textOf(message.content)}</div>
        </li>
      );
    case "assistant": {
      const text = message.content ?? "";
      return (
        <li className="message assistant">
          {text !== "" && (
            <div className="bubble" data-testid="assistant-message" data-streaming={streaming ? "true" : "false"}>
              {text}
            </div>
          )}
          {(message.toolCalls ?? []).map((toolCall) => (
            <ToolCallView key={toolCall.id} toolCall={toolCall} result={results.get(toolCall.id)} feature={feature} session={session} />
          ))}
        </li>
      );
    }
    case "reasoning":
      return (
        <li className="message assistant">
          <ReasoningBlock text={message.content} streaming={streaming} />
        </li>
      );
    case "activity":
      return (
        <li className="message assistant">
          <ActivityCard message={message} />
        </li>
      );
    case "system":
    case "developer":
      return (
        <li className="message system">
          <div className="system-note">{message.content}</div>
        </li>
      );
    case "tool":
      // Shown inside the card of the call it answers.
      return null;
  }
}
