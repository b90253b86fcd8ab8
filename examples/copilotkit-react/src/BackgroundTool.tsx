// A frontend tool: the agent calls it, the page runs it and sends the result back (CopilotKit then
// runs the agent again with the result, so it can say what it did).
import { useFrontendTool } from "@copilotkit/react-core/v2";
import { z } from "zod";

const backgroundParameters = z.object({ color: z.string().describe("A CSS color, e.g. lightblue or #223344") });

export function BackgroundTool({ onChange }: { onChange: (color: string) => void }) {
  useFrontendTool({
    name: "change_background",
    description: "Changes the page's background color.",
    parameters: backgroundParameters,
    handler: async ({ color }) => {
      // The emulator sends no arguments of its own choosing; a real model sends a color.
      const applied = CSS.supports("color", color ?? "") ? color : "lightblue";
      onChange(applied);
      return { applied };
    },
  });
  return null;
}
