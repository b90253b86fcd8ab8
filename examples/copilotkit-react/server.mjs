// The server half: CopilotKit's runtime (v2, Express) serving one Antigravity agent at
// /api/copilotkit, and the built page (dist/) beside it, on one origin.
//
// Without GEMINI_API_KEY the agent runs on the bundled harness emulator, whose scripted model calls a
// tool when a message names it ("… with change_background", "… with delete_record"): no key needed.
// With a key it runs the real harness (pip install google-antigravity) and Gemini.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { AntigravityAgent } from "@ag-ui-antigravity/agent";
import { CopilotRuntime } from "@copilotkit/runtime/v2";
import { createCopilotExpressHandler } from "@copilotkit/runtime/v2/express";
import express from "express";

const useGemini = (process.env.GEMINI_API_KEY ?? "") !== "";

// A server tool the agent may only run once the user approves it: `toolApproval: true` turns each
// call into an AG-UI interrupt, which the page renders (src/RecordApproval.tsx) and answers with `resume`.
const deleteRecord = {
  name: "delete_record",
  description: "Deletes a record by its id.",
  parameters: { type: "object", properties: { id: { type: "string", description: "The record's id" } }, required: ["id"] },
  handler: async ({ id }) => ({ deleted: id }),
};

const agent = new AntigravityAgent({
  harness: useGemini ? "discover" : "emulator",
  systemInstructions: "You are a concise assistant in a web page. Use the page's tools when asked.",
  serverTools: [deleteRecord],
  toolApproval: true,
});

const runtime = new CopilotRuntime({ agents: { default: agent } });
const app = express();
app.disable("x-powered-by");
app.use(createCopilotExpressHandler({ runtime, basePath: "/api/copilotkit" }));

const page = fileURLToPath(new URL("./dist/", import.meta.url));
if (existsSync(page)) app.use(express.static(page));
else app.get("/", (_request, response) => void response.type("text").send("Build the page first: npm run build"));

const host = process.env.HOST ?? "127.0.0.1";
const server = app.listen(Number(process.env.PORT ?? 4000), host, () => {
  const { port } = server.address();
  console.log(`${useGemini ? "Gemini" : "the harness emulator (scripted replies)"} behind CopilotKit: open http://${host}:${port}/`);
});

// Ctrl+C: stop taking requests, close the agent (its harness processes stop with it), then exit.
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    server.close();
    server.closeAllConnections();
    void agent.close({ deadlineMs: 5_000 }).finally(() => process.exit(0));
  });
}
