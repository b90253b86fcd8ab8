// The README's minimal example, type-checked in CI. Run it against the emulator (no API key needed):
//   ANTIGRAVITY_HARNESS_PATH=../harness-emulator/dist/bin.js node --experimental-strip-types examples/minimal.ts
import { HarnessError, HarnessProcess } from "../src/index.js";

export async function main(): Promise<void> {
  const harness = await HarnessProcess.start({ signal: AbortSignal.timeout(60_000) });
  try {
    const conversation = await harness.openConversation({
      model: process.env.GEMINI_API_KEY ? "gemini-3.6-flash" : "emulator:demo",
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
    const turn = conversation.send("What time is it? Use the tool.");
    for await (const step of turn) {
      if (step.kind === "text") process.stdout.write(step.textDelta);
      if (step.kind === "custom_tool" && step.status === "done") process.stdout.write(`\n[tool ${step.tool?.name}]\n`);
    }
    const { text, usage } = await turn.result;
    process.stdout.write(`\n\nanswer: ${text}\ntokens: ${usage.totalTokens}\n`);
  } catch (error) {
    if (HarnessError.isInstance(error)) process.stderr.write(`${error.code}: ${error.message}\n${error.stderrTail.join("\n")}\n`);
    throw error;
  } finally {
    await harness.close();
  }
}
