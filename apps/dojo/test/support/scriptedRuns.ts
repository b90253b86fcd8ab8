// The stand-in's agents: one scripted AG-UI conversation per dojo feature. Each run looks at what
// the page sent (messages, state, tools, resume) and answers the way apps/server's demo agents are
// expected to, so the browser tests exercise every page without a harness. The scripts also check
// the page's requests and answer a wrong one with RUN_ERROR, so a dojo bug fails a test.
import type { BaseEvent, Interrupt, Message, RunAgentInput } from "@ag-ui/core";
import {
  messagesSnapshot,
  nextId,
  reasoning,
  runError,
  runFinishedInterrupt,
  runFinishedSuccess,
  runStarted,
  stateDelta,
  stateSnapshot,
  textMessage,
  toolCall,
  toolResult,
} from "./eventBuilders.js";

/** A pause in the stream, so progress is visible (task steps completing one by one). */
export interface Pause {
  pauseMs: number;
}
export type ScriptStep = BaseEvent | Pause;

export function isPause(step: ScriptStep): step is Pause {
  return !("type" in step) && typeof step["pauseMs"] === "number";
}

/** What the stand-in remembers per thread between runs: parked interrupts and unanswered frontend tool calls. */
export interface ThreadMemory {
  parkedInterrupts: Interrupt[];
  parkedToolCalls: Map<string, { toolCallId: string; name: string; args: Record<string, unknown> }>;
  frontendCalls: Set<string>;
  /** Which script's interrupt the thread is parked on ("question" or "budget"), so a resume reaches the script that asked. */
  lastInterruptReason?: string | undefined;
}

export function newThreadMemory(): ThreadMemory {
  return { parkedInterrupts: [], parkedToolCalls: new Map(), frontendCalls: new Set() };
}

interface RunBody {
  steps: ScriptStep[];
  ending: { kind: "success"; pendingToolCallIds?: string[] } | { kind: "interrupt"; interrupts: Interrupt[] } | { kind: "error"; message: string; code: string };
}

class ScriptError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

function lastMessage(input: RunAgentInput): Message | undefined {
  return input.messages.at(-1);
}

function lastUserText(input: RunAgentInput): string {
  for (let index = input.messages.length - 1; index >= 0; index -= 1) {
    const message = input.messages[index];
    if (message?.role === "user") return typeof message.content === "string" ? message.content : "";
  }
  return "";
}

function userMessageCount(input: RunAgentInput): number {
  return input.messages.filter((message) => message.role === "user").length;
}

function requireDeclaredTool(input: RunAgentInput, name: string): void {
  const tool = input.tools.find((candidate) => candidate.name === name);
  if (tool === undefined) throw new ScriptError(`The page did not declare the frontend tool ${name} in the run's tools.`, "tool_not_declared");
  const parameters = tool.parameters as { type?: unknown } | undefined;
  if (parameters?.type !== "object") throw new ScriptError(`The frontend tool ${name} has no JSON Schema object parameters.`, "tool_not_declared");
}

/** The answer the page sent for a frontend tool call this thread left open, checked against what was asked. */
function frontendAnswer(input: RunAgentInput, memory: ThreadMemory): { toolCallId: string; content: string } | undefined {
  const message = lastMessage(input);
  if (message?.role !== "tool") return undefined;
  if (!memory.frontendCalls.has(message.toolCallId)) throw new ScriptError(`No open tool call has the id ${message.toolCallId}.`, "unknown_tool_call");
  memory.frontendCalls.delete(message.toolCallId);
  return { toolCallId: message.toolCallId, content: typeof message.content === "string" ? message.content : "" };
}

function frontendCall(memory: ThreadMemory, name: string, args: unknown): { steps: BaseEvent[]; toolCallId: string } {
  const toolCallId = nextId(`call-${name}`);
  memory.frontendCalls.add(toolCallId);
  return { steps: toolCall(toolCallId, name, args), toolCallId };
}

function weatherFor(location: string): Record<string, unknown> {
  return { location, temperature: 18, feels_like: 17, conditions: "Partly cloudy", humidity: 72, wind_speed: 14, unit: "°C" };
}

function locationIn(text: string): string {
  const match = /\bin ([A-Z][\w ]*?)(?:[?.!]|$)/.exec(text);
  return match?.[1]?.trim() ?? "Tokyo";
}

function weatherTurn(text: string): RunBody {
  const location = locationIn(text);
  const messageId = nextId("message");
  const callId = nextId("call-get_weather");
  return {
    steps: [
      ...reasoning(`The user asked about the weather in ${location}; get_weather answers that.`),
      ...textMessage(`Let me check the weather in ${location}.`, messageId),
      ...toolCall(callId, "get_weather", { location }, messageId),
      // Long enough for the page's pending card to be seen before the result replaces it.
      { pauseMs: 400 },
      toolResult(callId, JSON.stringify(weatherFor(location))),
      ...textMessage(`It is 18°C and partly cloudy in ${location}, with 72% humidity.`),
    ],
    ending: { kind: "success" },
  };
}

function agenticChat(input: RunAgentInput, memory: ThreadMemory): RunBody {
  const answer = frontendAnswer(input, memory);
  if (answer !== undefined) return { steps: textMessage(`Done: ${answer.content}`), ending: { kind: "success" } };
  const text = lastUserText(input);
  if (/weather/i.test(text)) return weatherTurn(text);
  if (/background/i.test(text)) {
    requireDeclaredTool(input, "change_background");
    const call = frontendCall(memory, "change_background", { background: "linear-gradient(135deg, #fdfbfb 0%, #ebedee 40%, #ffd6a5 100%)" });
    return { steps: [...textMessage("Changing the background for you."), ...call.steps], ending: { kind: "success", pendingToolCallIds: [call.toolCallId] } };
  }
  if (/\bfail\b/i.test(text)) {
    return { steps: textMessage("Starting on that…"), ending: { kind: "error", message: "The harness stopped answering.", code: "harness_unavailable" } };
  }
  return {
    steps: [
      ...reasoning("A greeting. I should say hello and offer what this demo can do."),
      ...textMessage(`Hello! You said "${text}". This is message ${userMessageCount(input)} in this thread. I can check the weather or change the background.`),
    ],
    ending: { kind: "success" },
  };
}

function humanInTheLoop(input: RunAgentInput, memory: ThreadMemory): RunBody {
  const answer = frontendAnswer(input, memory);
  if (answer !== undefined) {
    const decision = JSON.parse(answer.content) as { accepted?: unknown; steps?: Array<{ description: string; status: string }> };
    if (typeof decision.accepted !== "boolean" || !Array.isArray(decision.steps)) throw new ScriptError("The plan answer must be { accepted, steps }.", "invalid_tool_result");
    if (!decision.accepted) return { steps: textMessage("Understood, I will not carry out the plan."), ending: { kind: "success" } };
    const chosen = decision.steps.filter((step) => step.status === "enabled").map((step) => step.description);
    return { steps: textMessage(`Executing ${chosen.length} steps: ${chosen.join("; ")}.`), ending: { kind: "success" } };
  }
  requireDeclaredTool(input, "generate_task_steps");
  const steps = ["Build the rocket", "Train the crew", "Launch", "Land on Mars", "Set up the base"].map((description) => ({ description, status: "enabled" }));
  const call = frontendCall(memory, "generate_task_steps", { steps });
  return { steps: [...textMessage("Here is a plan. Switch off any step you do not want, then confirm."), ...call.steps], ending: { kind: "success", pendingToolCallIds: [call.toolCallId] } };
}

function toolBasedGenerativeUi(input: RunAgentInput, memory: ThreadMemory): RunBody {
  const answer = frontendAnswer(input, memory);
  if (answer !== undefined) return { steps: textMessage("I hope you enjoy the haiku."), ending: { kind: "success" } };
  requireDeclaredTool(input, "generate_haiku");
  const call = frontendCall(memory, "generate_haiku", {
    japanese: ["古池や", "蛙飛び込む", "水の音"],
    english: ["An old silent pond", "A frog jumps into the pond", "Splash! Silence again"],
  });
  return { steps: call.steps, ending: { kind: "success", pendingToolCallIds: [call.toolCallId] } };
}

function sharedState(input: RunAgentInput): RunBody {
  const state = (input.state ?? {}) as { recipe?: { title?: string; ingredients?: Array<{ name?: string }> } };
  if (state.recipe === undefined) throw new ScriptError("The run's state has no recipe.", "invalid_state");
  const names = (state.recipe.ingredients ?? []).map((ingredient) => ingredient.name ?? "").filter((name) => name !== "");
  const steps: ScriptStep[] = [stateSnapshot(state), ...textMessage(`Your recipe has these ingredients: ${names.join(", ")}.`)];
  if (/improve/i.test(lastUserText(input))) {
    steps.push(
      { pauseMs: 100 },
      stateDelta([{ op: "replace", path: "/recipe/title", value: `Improved ${state.recipe.title ?? "recipe"}` }]),
      { pauseMs: 100 },
      stateDelta([{ op: "add", path: "/recipe/ingredients/-", value: { icon: "🧄", name: "Garlic", amount: "2 cloves" } }]),
      { pauseMs: 100 },
      stateDelta([{ op: "add", path: "/recipe/instructions/-", value: "Finish with fresh herbs" }]),
      ...textMessage("I added garlic and a finishing step."),
    );
  }
  return { steps, ending: { kind: "success" } };
}

function agenticGenerativeUi(input: RunAgentInput): RunBody {
  // "slowly" stretches each step, so a test can stop the run part-way however loaded the machine is.
  const stepPauseMs = /\bslowly\b/i.test(lastUserText(input)) ? 3_000 : 200;
  const descriptions = ["Research the market", "Write the plan", "Build the prototype", "Launch"];
  const steps: ScriptStep[] = [stateSnapshot({ steps: descriptions.map((description) => ({ description, status: "pending" })) }), ...textMessage("Working through the task now.")];
  descriptions.forEach((_, index) => steps.push({ pauseMs: stepPauseMs }, stateDelta([{ op: "replace", path: `/steps/${index}/status`, value: "completed" }])));
  steps.push(...textMessage("All four steps are done."));
  return { steps, ending: { kind: "success" } };
}

/** Before an interrupt, the state a resume needs: the conversation as the server sees it. */
function snapshotWith(input: RunAgentInput, assistant: Message): BaseEvent {
  return messagesSnapshot([...input.messages, assistant]);
}

function toolApproval(input: RunAgentInput, memory: ThreadMemory): RunBody {
  const resume = input.resume?.[0];
  if (resume !== undefined) {
    const parked = memory.parkedToolCalls.get(resume.interruptId);
    if (parked === undefined) throw new ScriptError(`No parked approval has the id ${resume.interruptId}.`, "unknown_interrupt");
    memory.parkedToolCalls.delete(resume.interruptId);
    const payload = (resume.payload ?? {}) as Record<string, unknown>;
    const unknownKeys = Object.keys(payload).filter((key) => !["approved", "reason", "editedArgs"].includes(key));
    if (unknownKeys.length > 0) throw new ScriptError(`The approval answer has keys its responseSchema does not allow: ${unknownKeys.join(", ")}.`, "invalid_resume_payload");
    if (resume.status === "cancelled" || payload["approved"] === false) {
      const why = typeof payload["reason"] === "string" ? payload["reason"] : "no reason given";
      return { steps: [toolResult(parked.toolCallId, `The user denied this tool call: ${why}`), ...textMessage(`Understood, I did not run ${parked.name} (${why}).`)], ending: { kind: "success" } };
    }
    if (payload["approved"] !== true) throw new ScriptError("An approval payload needs approved: true or false.", "invalid_resume_payload");
    const edited = payload["editedArgs"];
    const args = typeof edited === "object" && edited !== null ? (edited as Record<string, unknown>) : parked.args;
    const path = String(args["path"]);
    return {
      steps: [toolResult(parked.toolCallId, JSON.stringify({ ok: true, path, bytes: String(args["content"]).length })), ...textMessage(`Approved: I wrote ${path}.`)],
      ending: { kind: "success" },
    };
  }
  const messageId = nextId("message");
  const toolCallId = nextId("call-write_file");
  const args = { path: "notes.txt", content: "hello" };
  // The shape @ag-ui-antigravity/hitl gives an approval interrupt.
  const interrupt: Interrupt = {
    id: nextId("approval"),
    reason: "tool_call",
    message: "Allow the agent to run write_file?",
    toolCallId,
    responseSchema: {
      type: "object",
      properties: {
        approved: { type: "boolean" },
        reason: { type: "string" },
        editedArgs: { type: "object", properties: { path: { type: "string" }, content: { type: "string" } }, required: ["path", "content"] },
      },
      required: ["approved"],
      additionalProperties: false,
    },
    expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
    metadata: { kind: "antigravity:tool_approval", toolName: "write_file", arguments: args },
  };
  memory.parkedToolCalls.set(interrupt.id, { toolCallId, name: "write_file", args });
  const intro = "I will write the file once you approve.";
  return {
    steps: [
      ...textMessage(intro, messageId),
      ...toolCall(toolCallId, "write_file", args, messageId),
      snapshotWith(input, { id: messageId, role: "assistant", content: intro, toolCalls: [{ id: toolCallId, type: "function", function: { name: "write_file", arguments: JSON.stringify(args) } }] }),
    ],
    ending: { kind: "interrupt", interrupts: [interrupt] },
  };
}

const languageChoices = ["TypeScript", "Python", "Go"];

const budgetSchema = {
  type: "object",
  properties: {
    budget: { type: "number", title: "Budget", description: "Roughly how much you want to spend." },
    currency: { type: "string", enum: ["EUR", "USD", "GBP"] },
    outdoors: { type: "boolean", title: "Outdoor activities" },
  },
  required: ["budget", "currency"],
};

/** An `input_required` interrupt with no choices in its metadata: the page builds a form from its responseSchema. */
function budgetQuestion(input: RunAgentInput, resume: { status: string; payload?: unknown } | undefined): RunBody {
  if (resume !== undefined) {
    if (resume.status === "cancelled") return { steps: textMessage("No problem, we can decide later."), ending: { kind: "success" } };
    const payload = resume.payload as { budget?: unknown; currency?: unknown; outdoors?: unknown } | undefined;
    if (typeof payload?.budget !== "number" || typeof payload.currency !== "string") throw new ScriptError("The answer must match the responseSchema: { budget: number, currency: string }.", "invalid_resume_payload");
    return { steps: textMessage(`Planning a weekend for ${payload.budget} ${payload.currency}${payload.outdoors === true ? " outdoors" : ""}.`), ending: { kind: "success" } };
  }
  const intro = "I can plan that. First, your budget.";
  const messageId = nextId("message");
  const interrupt: Interrupt = { id: nextId("input"), reason: "input_required", message: "What budget do you have for the weekend?", responseSchema: budgetSchema };
  return { steps: [...textMessage(intro, messageId), snapshotWith(input, { id: messageId, role: "assistant", content: intro })], ending: { kind: "interrupt", interrupts: [interrupt] } };
}

function questions(input: RunAgentInput, memory: ThreadMemory): RunBody {
  const resume = input.resume?.[0];
  const answering = memory.lastInterruptReason;
  if (resume === undefined ? /weekend/i.test(lastUserText(input)) : answering === "budget") {
    const body = budgetQuestion(input, resume);
    memory.lastInterruptReason = resume === undefined ? "budget" : undefined;
    return body;
  }
  memory.lastInterruptReason = resume === undefined ? "question" : undefined;
  if (resume !== undefined) {
    if (resume.status === "cancelled") return { steps: textMessage("No problem, we can decide later."), ending: { kind: "success" } };
    const payload = resume.payload as { answers?: Array<{ selected?: unknown; freeform?: unknown }> } | undefined;
    const answer = payload?.answers?.[0];
    if (answer === undefined || !Array.isArray(answer.selected)) throw new ScriptError("A question answer needs { answers: [{ selected, freeform?, skipped? }] }.", "invalid_resume_payload");
    const chosen = languageChoices.filter((_, index) => (answer.selected as unknown[]).includes(String(index)));
    const text = chosen.length > 0 ? chosen.join(" and ") : typeof answer.freeform === "string" ? answer.freeform : "";
    return { steps: textMessage(`Great choice: ${text}. Let's start there.`), ending: { kind: "success" } };
  }
  const intro = "Before I suggest anything, one question.";
  const messageId = nextId("message");
  const question = "Which language would you like to learn?";
  // The shape @ag-ui-antigravity/hitl gives the harness's ask_question.
  const interrupt: Interrupt = {
    id: nextId("question"),
    reason: "input_required",
    message: question,
    responseSchema: {
      type: "object",
      properties: {
        answers: {
          type: "array",
          minItems: 1,
          maxItems: 1,
          items: [
            {
              type: "object",
              title: question,
              properties: { selected: { type: "array", items: { type: "string", enum: ["0", "1", "2"] }, maxItems: 1 }, freeform: { type: "string" }, skipped: { type: "boolean" } },
              additionalProperties: false,
            },
          ],
        },
      },
      required: ["answers"],
      additionalProperties: false,
    },
    expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
    metadata: { kind: "antigravity:question", questions: [{ question, multiSelect: false, choices: languageChoices.map((text, index) => ({ id: String(index), text })) }] },
  };
  return {
    steps: [...textMessage(intro, messageId), snapshotWith(input, { id: messageId, role: "assistant", content: intro })],
    ending: { kind: "interrupt", interrupts: [interrupt] },
  };
}

function backendToolRendering(input: RunAgentInput): RunBody {
  return weatherTurn(lastUserText(input));
}

const scripts: Record<string, (input: RunAgentInput, memory: ThreadMemory) => RunBody> = {
  agentic_chat: agenticChat,
  backend_tool_rendering: backendToolRendering,
  human_in_the_loop: humanInTheLoop,
  tool_based_generative_ui: toolBasedGenerativeUi,
  shared_state: sharedState,
  agentic_generative_ui: agenticGenerativeUi,
  tool_approval: toolApproval,
  questions,
};

export const scriptedFeatures = Object.keys(scripts);

/** Checks the interrupt contract (a parked thread only accepts a resume answering every open interrupt), then runs the feature's script. */
export function scriptRun(feature: string, input: RunAgentInput, memory: ThreadMemory): ScriptStep[] {
  const script = scripts[feature];
  if (script === undefined) throw new Error(`no script for ${feature}`);
  const started = runStarted(input.threadId, input.runId);
  let body: RunBody;
  try {
    const open = memory.parkedInterrupts;
    const resume = input.resume ?? [];
    if (open.length > 0 && resume.length === 0) throw new ScriptError("This thread is waiting for an answer to its open interrupts.", "interrupt_pending");
    const unknown = resume.find((entry) => !open.some((interrupt) => interrupt.id === entry.interruptId));
    if (unknown !== undefined) throw new ScriptError(`No open interrupt has the id ${unknown.interruptId}.`, "unknown_interrupt");
    if (resume.length < open.length) throw new ScriptError("A resume must answer every open interrupt.", "incomplete_resume");
    memory.parkedInterrupts = [];
    body = script(input, memory);
  } catch (error) {
    if (!(error instanceof ScriptError)) throw error;
    return [started, runError(error.message, error.code)];
  }
  const { ending } = body;
  if (ending.kind === "error") return [started, ...body.steps, runError(ending.message, ending.code)];
  if (ending.kind === "interrupt") {
    memory.parkedInterrupts = ending.interrupts;
    return [started, ...body.steps, runFinishedInterrupt(input.threadId, input.runId, ending.interrupts)];
  }
  return [started, ...body.steps, runFinishedSuccess(input.threadId, input.runId, ending.pendingToolCallIds)];
}
