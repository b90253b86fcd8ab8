// The README's example, type-checked in CI.
import { randomUUID } from "node:crypto";
import { setState } from "@ag-ui-antigravity/hitl";
import { AntigravityAgent } from "@ag-ui-antigravity/agent";

export async function main(): Promise<void> {
  const agent = new AntigravityAgent({
    // The real localharness is discovered when this is "discover" (the default).
    harness: "emulator",
    systemInstructions: "You are a helpful weather assistant.",
    serverTools: [
      {
        name: "get_weather",
        description: "Current weather for a city",
        parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
        handler: async (args) => {
          setState({ lastCity: args.city });
          return { city: args.city, temperature: 21, conditions: "sunny" };
        },
      },
    ],
  });
  agent.addMessage({ id: randomUUID(), role: "user", content: "Call get_weather for Paris" });
  await agent.runAgent({}, { onTextMessageContentEvent: ({ event }) => void process.stdout.write(event.delta) });
  await agent.close();
}
