// The README's minimal example: type-checked in CI and run against the emulator by
// test/integration/example.test.ts (set ANTIGRAVITY_HARNESS_PATH to the emulator's dist/bin.js to
// try it without the real binary or an API key).
import { HarnessError, HarnessProcess } from "../src/index.js";

export async function main(output: NodeJS.WritableStream = process.stdout): Promise<void> {
  const harness = await HarnessProcess.start({ signal: AbortSignal.timeout(60_000) });
  try {
    const conversation = await harness.openConversation({
      ...(process.env.GEMINI_API_KEY ? {} : { model: "emulator:demo" }),
      workspaces: [process.cwd()],
      customTools: [
        {
          name: "get_time",
          description: "Returns the current time as an ISO string.",
          parameters: { type: "object", properties: {} },
          handler: async () => ({ now: new Date().toISOString() }),
        },
      ],
    });
    const turn = conversation.send("What time is it? Use the get_time tool.");
    for await (const step of turn) {
      if (step.kind === "text" && step.source === "model") output.write(step.textDelta);
      if (step.kind === "custom_tool" && step.status === "done") output.write(`\n[tool ${step.tool?.name}]\n`);
    }
    const { text, usage } = await turn.result;
    output.write(`\n\nanswer: ${text}\ntokens: ${usage.totalTokens}\n`);
  } catch (error) {
    if (HarnessError.isInstance(error)) process.stderr.write(`${error.code}: ${error.message}\n${error.stderrTail.join("\n")}\n`);
    throw error;
  } finally {
    await harness.close();
  }
}
