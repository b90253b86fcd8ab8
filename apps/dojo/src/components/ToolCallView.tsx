import type { ToolCall, ToolMessage } from "@ag-ui/client";
import { textOf } from "../agent/conversation";
import { isRecord, parseJsonSafely } from "../agent/json";
import type { AgentSession } from "../agent/useAgentSession";
import type { Feature } from "../features/featureCatalog";
import { HaikuCard } from "./HaikuCard";
import { TaskStepsConfirmation } from "./TaskStepsConfirmation";
import { ToolCallCard, type ToolCallStatus } from "./ToolCallCard";
import { WeatherCard } from "./WeatherCard";

interface ToolCallViewProps {
  toolCall: ToolCall;
  result: ToolMessage | undefined;
  feature: Feature;
  session: AgentSession;
}

/** Picks the renderer for a tool call: a dedicated card for the demo tools, a generic card otherwise. */
export function ToolCallView({ toolCall, result, feature, session }: ToolCallViewProps) {
  const args = parseJsonSafely(toolCall.function.arguments);
  const resultText = result === undefined ? undefined : textOf(result.content);
  const isFrontendTool = feature.frontendTools.some((tool) => tool.definition.name === toolCall.function.name);
  const status: ToolCallStatus = session.deniedToolCallIds.includes(toolCall.id)
    ? "denied"
    : resultText !== undefined
      ? "complete"
      : session.pendingInterrupts.some((interrupt) => interrupt.toolCallId === toolCall.id)
        ? "awaiting-approval"
        : session.isRunning
          ? "pending"
          : isFrontendTool
            ? "waiting"
            : "no-result";

  switch (toolCall.function.name) {
    case "get_weather": {
      const location = isRecord(args) && typeof args["location"] === "string" ? args["location"] : "";
      return <WeatherCard location={location} resultText={resultText} toolCall={toolCall} status={status} />;
    }
    case "generate_haiku":
      if (isFrontendTool) return <HaikuCard args={args} status={status} />;
      break;
    case "generate_task_steps":
      if (isFrontendTool)
        return (
          <TaskStepsConfirmation
            args={args}
            answer={parseJsonSafely(resultText)}
            canRespond={!session.isRunning && resultText === undefined}
            onRespond={(content) => session.answerToolCall(toolCall.id, content)}
          />
        );
      break;
  }
  return <ToolCallCard toolCall={toolCall} resultText={resultText} status={status} />;
}
