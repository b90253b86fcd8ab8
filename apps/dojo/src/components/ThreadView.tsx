import { useMemo, useState } from "react";
import { useAgentSession } from "../agent/useAgentSession";
import type { StoredThread } from "../agent/threadStore";
import type { Feature } from "../features/featureCatalog";
import type { FrontendToolEffects } from "../features/frontendTools";
import { AgentTasks } from "./AgentTasks";
import { ChatPanel } from "./ChatPanel";
import { RecipeEditor } from "./RecipeEditor";
import { TaskProgress } from "./TaskProgress";

interface ThreadViewProps {
  feature: Feature;
  threadId: string;
  stored: StoredThread | undefined;
  onSaved(): void;
}

export function ThreadView({ feature, threadId, stored, onSaved }: ThreadViewProps) {
  const [background, setBackground] = useState<string | undefined>(undefined);
  const effects = useMemo<FrontendToolEffects>(() => ({ setBackground }), []);
  const session = useAgentSession(feature, threadId, stored, effects, onSaved);

  return (
    <div className={feature.sidePanel === undefined ? "thread-layout" : "thread-layout with-side-panel"}>
      {feature.sidePanel === "recipe" && <RecipeEditor session={session} />}
      {feature.sidePanel === "task-progress" && <TaskProgress state={session.state} isRunning={session.isRunning} />}
      {feature.sidePanel === "agent-tasks" && <AgentTasks messages={session.messages} />}
      <ChatPanel feature={feature} session={session} background={background} />
    </div>
  );
}
