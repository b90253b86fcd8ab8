// A second process on a shared save dir, for the thread-store fault cases (thread-store.test.ts):
//   runs <saveDir> <threadPrefix> <threads>   two agents (alpha, beta) run <threads> threads each, all
//                                             at once, on the same thread ids; prints a JSON summary
//   write-loop <saveDir>                      writes thread records as fast as it can until killed
import { randomUUID } from "node:crypto";
import { AntigravityAgent, FileThreadStore } from "@ag-ui-antigravity/agent";

const [mode, saveDir, prefix = "t", countText = "50"] = process.argv.slice(2);
if (saveDir === undefined) throw new Error("usage: thread-store-worker.mjs runs|write-loop <saveDir> …");

function runOnce(agent, threadId, text) {
  return new Promise((resolve) => {
    const types = [];
    const input = { threadId, runId: randomUUID(), messages: [{ id: randomUUID(), role: "user", content: text }], tools: [], context: [], state: {}, forwardedProps: {} };
    agent.run(input).subscribe({
      next: (event) => void types.push(event.type),
      error: () => resolve(false),
      complete: () => resolve(types.at(-1) === "RUN_FINISHED"),
    });
  });
}

if (mode === "runs") {
  const agents = ["alpha", "beta"].map((agentId) => new AntigravityAgent({ agentId, harness: "emulator", model: "emulator:demo", saveDir, logger: {} }));
  const threads = Array.from({ length: Number(countText) }, (_, index) => `${prefix}-${index}`);
  const results = await Promise.all(agents.flatMap((agent, index) => threads.map((threadId) => runOnce(agent, threadId, `${["alpha", "beta"][index]} says ${threadId}`))));
  await Promise.all(agents.map((agent) => agent.close({ deadlineMs: 10_000 })));
  process.stdout.write(`${JSON.stringify({ finished: results.filter(Boolean).length, failed: results.filter((ok) => !ok).length })}\n`);
} else if (mode === "write-loop") {
  const store = new FileThreadStore({ directory: saveDir });
  // Large records (500 fingerprints each), so that a kill lands mid-write often.
  const forwarded = Array.from({ length: 500 }, (_, index) => ({ id: `message-${index}`, digest: `12:${"x".repeat(43)}` }));
  process.stdout.write("writing\n");
  for (let round = 0; ; round += 1) {
    await Promise.all(Array.from({ length: 20 }, (_, index) => store.set({ agentId: "alpha", threadId: `thread-${index}` }, { conversationId: `conversation-${round}-${index}`, forwarded, toolSignature: "sig" })));
  }
} else {
  throw new Error(`unknown mode ${mode}`);
}
