import type { State } from "@ag-ui/client";
import { changeBackgroundTool, generateHaikuTool, generateTaskStepsTool, type FrontendTool } from "./frontendTools";
import { initialRecipe } from "./recipe";

export type FeatureId =
  | "agentic_chat"
  | "backend_tool_rendering"
  | "human_in_the_loop"
  | "tool_based_generative_ui"
  | "shared_state"
  | "agentic_generative_ui"
  | "tool_approval"
  | "questions"
  | "reconnect"
  | "autonomous_work";

export interface Feature {
  /** The route on the server (`POST /<id>`) and the page's hash (`#/<id>`). */
  id: FeatureId;
  title: string;
  summary: string;
  suggestions: string[];
  frontendTools: FrontendTool[];
  /** The state a new thread starts with, sent in its first run. */
  initialState: () => State;
  /** A panel rendered next to the chat from the agent state. */
  sidePanel?: "recipe" | "task-progress" | "agent-tasks";
  /**
   * The page stays connected to its thread (AG-UI `connect` with `stayOpen`): a reload mid-reply
   * picks the reply up where it was, and turns the server starts arrive while the page is open.
   */
  reconnects?: boolean;
}

export const features: Feature[] = [
  {
    id: "agentic_chat",
    title: "Agentic chat",
    summary: "Streamed replies, reasoning, a server-side get_weather tool, and a change_background tool the page runs itself.",
    suggestions: ["Hello! What can you do?", "What's the weather in Tokyo?", "Change the background to a sunset gradient"],
    frontendTools: [changeBackgroundTool],
    initialState: () => ({}),
  },
  {
    id: "backend_tool_rendering",
    title: "Backend tool rendering",
    summary: "The server runs get_weather; the page renders its structured result as a weather card.",
    suggestions: ["What's the weather in San Francisco?", "And in New York?"],
    frontendTools: [],
    initialState: () => ({}),
  },
  {
    id: "human_in_the_loop",
    title: "Human in the loop",
    summary: "The agent proposes a plan with generate_task_steps; you toggle steps and confirm or reject it.",
    suggestions: ["Plan a trip to Mars in 5 steps", "Plan a birthday party"],
    frontendTools: [generateTaskStepsTool],
    initialState: () => ({}),
  },
  {
    id: "tool_based_generative_ui",
    title: "Tool-based generative UI",
    summary: "The agent calls the generate_haiku frontend tool; the page renders the haiku as a card.",
    suggestions: ["Write me a haiku about autumn", "A haiku about the sea"],
    frontendTools: [generateHaikuTool],
    initialState: () => ({}),
  },
  {
    id: "shared_state",
    title: "Shared state",
    summary: "A recipe both you and the agent edit: your edits travel in the next run's state, the agent's arrive as snapshots and deltas.",
    suggestions: ["Improve the recipe", "Give me all the ingredients", "Make it vegetarian"],
    frontendTools: [],
    initialState: () => ({ recipe: structuredClone(initialRecipe) }),
    sidePanel: "recipe",
  },
  {
    id: "agentic_generative_ui",
    title: "Agentic generative UI",
    summary: "A long task whose steps stream into state as deltas and render as live progress.",
    suggestions: ["Plan a product launch", "Organise a team offsite"],
    frontendTools: [],
    initialState: () => ({}),
    sidePanel: "task-progress",
  },
  {
    id: "tool_approval",
    title: "Tool approval",
    summary: "A write-capable tool waits for your approval: approve it, deny it with a reason, or edit its arguments first.",
    suggestions: ["Write a file called notes.txt saying hello", "Save path: todo.md, content: buy milk"],
    frontendTools: [],
    initialState: () => ({}),
  },
  {
    id: "questions",
    title: "Questions",
    summary: "The agent stops to ask you to choose; the run parks until you answer.",
    suggestions: ["Help me pick a programming language", "Which pizza toppings should I get?", "Ask me to choose between tea, coffee or juice", "Plan my weekend"],
    frontendTools: [],
    initialState: () => ({}),
  },
  {
    id: "reconnect",
    title: "Reconnect and reminders",
    summary:
      "Reload the page while a reply streams: it reconnects and the reply finishes. Keep it open: a scheduled reminder arrives without anyone asking. Stop only detaches this page; the server finishes the reply.",
    suggestions: ["Tell me a long story", "Hello! What can you do?"],
    frontendTools: [],
    initialState: () => ({}),
    reconnects: true,
  },
  {
    id: "autonomous_work",
    title: "Autonomous work",
    summary:
      "The agent works on its own: it keeps a task list, schedules a turn it starts itself, looks up a skill, is sent back when a report lacks its summary, and stops at its budget (ask it to take on the big job).",
    suggestions: ["Plan the release", "Remind me to check on the release", "Follow the release-checklist skill", "Write a report on the release"],
    frontendTools: [],
    initialState: () => ({}),
    sidePanel: "agent-tasks",
    // A turn the agent schedules arrives on the page's connect stream.
    reconnects: true,
  },
];

export const defaultFeature: Feature = features[0] as Feature;

export function featureById(id: string): Feature | undefined {
  return features.find((feature) => feature.id === id);
}
