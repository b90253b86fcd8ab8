import type { Tool } from "@ag-ui/client";

// The frontend tools the dojo pages declare in every run's `tools` (see apps/dojo/src/features/
// frontendTools.ts); the server's agents and scenarios are written against these definitions.

export const changeBackgroundTool: Tool = {
  name: "change_background",
  description: "Change the background of the chat. Accepts any CSS background value: a colour name, hex code or gradient.",
  parameters: {
    type: "object",
    properties: { background: { type: "string", description: "A CSS background value." } },
    required: ["background"],
  },
};

export const generateHaikuTool: Tool = {
  name: "generate_haiku",
  description: "Show a haiku to the user: three lines in Japanese and their English translation.",
  parameters: {
    type: "object",
    properties: {
      japanese: { type: "array", items: { type: "string" }, minItems: 3, maxItems: 3 },
      english: { type: "array", items: { type: "string" }, minItems: 3, maxItems: 3 },
    },
    required: ["japanese", "english"],
  },
};

export const generateTaskStepsTool: Tool = {
  name: "generate_task_steps",
  description: "Propose a plan as a list of steps and ask the user to confirm it. The answer is JSON: { accepted, steps }.",
  parameters: {
    type: "object",
    properties: {
      steps: {
        type: "array",
        items: {
          type: "object",
          properties: { description: { type: "string" }, status: { type: "string", enum: ["enabled", "disabled"] } },
          required: ["description", "status"],
        },
      },
    },
    required: ["steps"],
  },
};
