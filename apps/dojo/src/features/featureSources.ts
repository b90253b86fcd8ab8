// The Code tab's files: each demo's server-side agent definition (apps/server) and the page's own
// client code (this app), as text, read from the files themselves when the dojo is built, so what
// the tab shows is what runs. Text only: the dojo still imports no server code and talks to the
// server over HTTP (ARCHITECTURE.md).
import type { FeatureId } from "./featureCatalog";

/** One file the Code tab shows: its path from the repository root, and its text. */
export interface SourceFile {
  path: string;
  side: "server" | "page";
  text: string;
}

const serverFiles = import.meta.glob<string>(["../../../server/src/agents/*.ts", "../../../server/src/tools/*.ts", "!**/*.test.ts"], { query: "?raw", import: "default", eager: true });
// From the dojo's root (apps/dojo), so every key reads /src/<dir>/<file> whichever folder it is in.
const pageFiles = import.meta.glob<string>(["/src/features/*.ts", "/src/components/*.tsx", "/src/agent/*.ts"], { query: "?raw", import: "default", eager: true });

/** Which files make each demo: the agent and its tools on the server, the tools, cards and panels on the page. */
const filesByFeature: Record<FeatureId, { server: string[]; page: string[] }> = {
  agentic_chat: { server: ["agents/agentic-chat.ts", "tools/weather-tool.ts"], page: ["features/frontendTools.ts", "agent/useAgentSession.ts"] },
  backend_tool_rendering: { server: ["agents/backend-tool-rendering.ts", "tools/weather-tool.ts"], page: ["components/WeatherCard.tsx", "features/weather.ts"] },
  human_in_the_loop: { server: ["agents/human-in-the-loop.ts"], page: ["features/taskSteps.ts", "components/TaskStepsConfirmation.tsx"] },
  tool_based_generative_ui: { server: ["agents/tool-based-generative-ui.ts"], page: ["features/frontendTools.ts", "components/HaikuCard.tsx"] },
  shared_state: { server: ["agents/shared-state.ts", "tools/recipe-tools.ts"], page: ["features/recipe.ts", "components/RecipeEditor.tsx"] },
  agentic_generative_ui: { server: ["agents/agentic-generative-ui.ts", "tools/task-progress-tool.ts"], page: ["components/TaskProgress.tsx"] },
  tool_approval: { server: ["agents/tool-approval.ts", "tools/write-file-tool.ts"], page: ["features/approval.ts", "components/ApprovalInterrupt.tsx"] },
  questions: { server: ["agents/questions.ts"], page: ["features/questions.ts", "components/QuestionInterrupt.tsx"] },
  reconnect: { server: ["agents/reconnect.ts"], page: ["agent/useAgentSession.ts", "agent/conversation.ts"] },
  autonomous_work: { server: ["agents/autonomous-work.ts"], page: ["features/activities.ts", "components/ActivityCard.tsx", "components/AgentTasks.tsx"] },
};

function find(files: Record<string, string>, prefix: string, name: string): string | undefined {
  return files[`${prefix}${name}`];
}

/** The files of one demo, server first; a file that moved is listed with a note instead of failing the page. */
export function sourcesOf(featureId: FeatureId): SourceFile[] {
  const { server, page } = filesByFeature[featureId];
  return [
    ...server.map((name) => ({ path: `apps/server/src/${name}`, side: "server" as const, text: find(serverFiles, "../../../server/src/", name) ?? `(${name} is not in this build)` })),
    ...page.map((name) => ({ path: `apps/dojo/src/${name}`, side: "page" as const, text: find(pageFiles, "/src/", name) ?? `(${name} is not in this build)` })),
  ];
}
