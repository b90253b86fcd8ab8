import type { Tool } from "@ag-ui/client";

/**
 * A tool the browser implements. It is declared in every run's `tools` (name, description, JSON
 * Schema parameters); the model calls it, the run ends with the call unanswered, and the dojo sends
 * the answer as a ToolMessage in the next run.
 *
 * - `automatic` tools are answered as soon as the run ends (after their effect is applied);
 * - `interactive` tools wait for the user, and the thread shows "waiting for you" meanwhile.
 */
export interface FrontendTool {
  definition: Tool;
  mode: "automatic" | "interactive";
}

/** What an automatic tool may touch on the page. */
export interface FrontendToolEffects {
  setBackground(background: string): void;
}

export const changeBackgroundTool: FrontendTool = {
  mode: "automatic",
  definition: {
    name: "change_background",
    description: "Change the background of the chat. Accepts any CSS background value: a colour name, hex code or gradient.",
    parameters: {
      type: "object",
      properties: { background: { type: "string", description: "A CSS background value, e.g. 'lightblue' or 'linear-gradient(...)'." } },
      required: ["background"],
    },
  },
};

export const generateHaikuTool: FrontendTool = {
  mode: "automatic",
  definition: {
    name: "generate_haiku",
    description: "Show a haiku to the user: three lines in Japanese and their English translation.",
    parameters: {
      type: "object",
      properties: {
        japanese: { type: "array", items: { type: "string" }, minItems: 3, maxItems: 3, description: "The three lines in Japanese." },
        english: { type: "array", items: { type: "string" }, minItems: 3, maxItems: 3, description: "The three lines in English." },
      },
      required: ["japanese", "english"],
    },
  },
};

export const generateTaskStepsTool: FrontendTool = {
  mode: "interactive",
  definition: {
    name: "generate_task_steps",
    description:
      "Propose a plan as a list of steps and ask the user to confirm it. The user may disable steps. " +
      "The answer is JSON: { accepted: boolean, steps: [{ description, status: 'enabled' | 'disabled' }] }.",
    parameters: {
      type: "object",
      properties: {
        steps: {
          type: "array",
          items: {
            type: "object",
            properties: {
              description: { type: "string", description: "What the step does, in a few words." },
              status: { type: "string", enum: ["enabled", "disabled"], description: "Start every step as 'enabled'." },
            },
            required: ["description", "status"],
          },
        },
      },
      required: ["steps"],
    },
  },
};

/** Runs an automatic tool and returns the ToolMessage content for the model. */
export function runAutomaticTool(name: string, args: unknown, effects: FrontendToolEffects): string {
  const record = typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {};
  switch (name) {
    case "change_background": {
      const background = typeof record["background"] === "string" ? record["background"] : "";
      if (background === "") return JSON.stringify({ status: "error", message: "No background was given." });
      effects.setBackground(background);
      return JSON.stringify({ status: "success", message: `Background changed to ${background}.` });
    }
    case "generate_haiku":
      return "Haiku generated!";
    default:
      return JSON.stringify({ status: "error", message: `The dojo has no handler for ${name}.` });
  }
}
