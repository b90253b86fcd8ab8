// Runs inside the compatibility project (scripts/compat-copilotkit.mjs installs it): the packed
// packages next to CopilotKit from npm. A CopilotRuntime (v2, Express) serves two kinds of agent,
// and @copilotkit/core — the class @copilotkit/react-core drives — talks to it the way a page does:
//   remote_*  HttpAgent → apps/server (started by the orchestrator; its URL is argv[2])
//   local_*   AntigravityAgent in this process, on the emulator
// For each: a chat turn, a frontend tool round trip, an approval interrupt answered with resume[],
// and stop. Prints one `ok <check>` or `FAIL <check>\t<why>` line per check; the orchestrator counts them.
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { HttpAgent } from "@ag-ui/client";
import { AntigravityAgent } from "@ag-ui-antigravity/agent";
import { CopilotKitCore } from "@copilotkit/core";
import { CopilotRuntime } from "@copilotkit/runtime/v2";
import { createCopilotExpressHandler } from "@copilotkit/runtime/v2/express";
import express from "express";

const demoServerUrl = process.argv[2];
if (demoServerUrl === undefined) throw new Error("usage: node drive-copilotkit.mjs <apps/server url>");

const deleteRecord = {
  name: "delete_record",
  description: "Deletes a record by id",
  parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
  handler: async (args) => ({ deleted: args.id }),
};
// Tokens arrive slowly enough that `stop` lands mid-answer.
const slowTokens = { ANTIGRAVITY_EMULATOR_TOKEN_DELAY_MS: "40", ANTIGRAVITY_EMULATOR_CHUNK_SIZE: "4" };
const localAgents = {
  local_chat: new AntigravityAgent({ harness: "emulator", env: slowTokens }),
  local_approval: new AntigravityAgent({ harness: "emulator", serverTools: [deleteRecord], toolApproval: true }),
};
const agents = {
  ...localAgents,
  remote_chat: new HttpAgent({ url: `${demoServerUrl}/agentic_chat` }),
  remote_approval: new HttpAgent({ url: `${demoServerUrl}/tool_approval` }),
  remote_slow: new HttpAgent({ url: `${demoServerUrl}/agentic_generative_ui` }),
};

const runtime = new CopilotRuntime({ agents });
const app = express();
app.use(createCopilotExpressHandler({ runtime, basePath: "/api/copilotkit", activateChannels: false }));
const server = app.listen(0, "127.0.0.1");
await once(server, "listening");
const runtimeUrl = `http://127.0.0.1:${server.address().port}/api/copilotkit`;

let failures = 0;
function report(name, error) {
  if (error === undefined) console.log(`ok   ${name}`);
  else {
    failures += 1;
    // A tab parts the check's name from the reason (which may hold anything but a newline).
    console.log(`FAIL ${name}\t${(error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, " ")}`);
  }
}
async function check(name, body) {
  try {
    await withTimeout(body(), 60_000, name);
    report(name);
  } catch (error) {
    report(name, error);
  }
}
function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    }),
  ]);
}
function expect(condition, message) {
  if (!condition) throw new Error(message);
}
const textOf = (message) => (typeof message.content === "string" ? message.content : JSON.stringify(message.content ?? ""));
const lastAssistantText = (agent) => textOf([...agent.messages].reverse().find((message) => message.role === "assistant") ?? {});

// CopilotKitCore only talks to its runtime (`/info`, then the agent routes) on a page: it returns early
// while `typeof window === "undefined"` (server rendering). Node 20 has fetch, EventTarget and
// CustomEvent, so a `window` global is all the page it needs; it reads nothing else from it.
globalThis.window ??= globalThis;

const toolCalls = [];
const core = new CopilotKitCore({
  runtimeUrl,
  tools: [
    {
      name: "change_background",
      description: "Changes the page background",
      handler: async (args) => {
        toolCalls.push(args);
        return { applied: true };
      },
    },
  ],
});
await withTimeout(
  new Promise((resolve, reject) => {
    const subscription = core.subscribe({
      onRuntimeConnectionStatusChanged: ({ status }) => {
        if (status === "connected") resolve(undefined);
        if (status === "error") reject(new Error("CopilotKitCore could not reach the runtime"));
      },
    });
    if (core.runtimeConnectionStatus === "connected") resolve(undefined);
    void subscription;
  }),
  30_000,
  "runtime connection",
);

/** A fresh thread on agent `id`, with one user message, as a chat page would start it. */
function threadWith(id, text) {
  const agent = core.getAgent(id);
  expect(agent !== undefined, `the runtime does not list agent ${id}`);
  agent.threadId = randomUUID();
  agent.setMessages([{ id: randomUUID(), role: "user", content: text }]);
  return agent;
}

/** Runs until RUN_FINISHED carries an interrupt, and returns the interrupts. */
async function runToInterrupt(agent) {
  let interrupts = [];
  const subscription = agent.subscribe({
    onRunFinishedEvent: ({ event }) => {
      if (event.outcome?.type === "interrupt") interrupts = event.outcome.interrupts;
    },
  });
  try {
    await core.runAgent({ agent });
  } finally {
    subscription.unsubscribe();
  }
  return interrupts;
}

for (const side of ["local", "remote"]) {
  await check(`${side}: chat turn`, async () => {
    const agent = threadWith(`${side}_chat`, "Hello there, how are you?");
    await core.runAgent({ agent });
    expect(lastAssistantText(agent).length > 0, `no assistant text (messages: ${JSON.stringify(agent.messages)})`);
  });

  await check(`${side}: frontend tool round trip`, async () => {
    const before = toolCalls.length;
    const agent = threadWith(`${side}_chat`, "Please change the background to blue with change_background.");
    await core.runAgent({ agent });
    // CopilotKitCore runs the handler, appends its result and runs the agent again (followUp).
    await waitFor(() => toolCalls.length > before, "the change_background handler never ran");
    await waitFor(() => agent.messages.some((message) => message.role === "tool"), "no tool result message");
    await waitFor(() => !agent.isRunning, "the follow-up run did not finish");
    const afterTool = agent.messages.slice(agent.messages.findIndex((message) => message.role === "tool"));
    expect(afterTool.some((message) => message.role === "assistant" && textOf(message).length > 0), "no assistant answer after the tool result");
  });

  await check(`${side}: approval interrupt and resume`, async () => {
    const agent = threadWith(`${side}_approval`, side === "local" ? "Delete record 42 with delete_record." : "Please write a file called notes.txt saying hello");
    const interrupts = await runToInterrupt(agent);
    expect(interrupts.length === 1, `expected one interrupt, got ${JSON.stringify(interrupts)}`);
    const [interrupt] = interrupts;
    await core.runAgent({ agent, resume: [{ interruptId: interrupt.id, status: "resolved", payload: { approved: true } }] });
    const answer = lastAssistantText(agent);
    expect(answer.length > 0, "no assistant text after the approval");
    expect(!agent.isRunning, "the resumed run did not finish");
  });

  await check(`${side}: stop`, async () => {
    const agent =
      side === "local"
        ? threadWith("local_chat", `Please write a long answer: ${"lorem ipsum ".repeat(60)}`)
        : threadWith("remote_slow", "Plan a trip to Rome in five steps");
    let firstEvent;
    const started = new Promise((resolve) => {
      firstEvent = resolve;
    });
    const subscription = agent.subscribe({ onEvent: () => firstEvent() });
    const run = core.runAgent({ agent }).then(
      () => "finished",
      (error) => `rejected: ${error?.message ?? error}`,
    );
    await started;
    core.stopAgent({ agent });
    const outcome = await withTimeout(run, 15_000, "the stopped run");
    subscription.unsubscribe();
    expect(!agent.isRunning, `the agent still runs after stop (${outcome})`);
    // The agent serves the next run on a new thread: stop released what it held.
    const next = threadWith(side === "local" ? "local_chat" : "remote_chat", "Hello again");
    await core.runAgent({ agent: next });
    expect(lastAssistantText(next).length > 0, "no answer after a stopped run");
  });
}

async function waitFor(condition, message, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(message);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

server.closeAllConnections();
server.close();
await Promise.all(Object.values(localAgents).map((agent) => agent.close({ deadlineMs: 5_000 })));
console.log(`drive: ${failures === 0 ? "all checks passed" : `${failures} failed`}`);
process.exit(failures === 0 ? 0 : 1);
