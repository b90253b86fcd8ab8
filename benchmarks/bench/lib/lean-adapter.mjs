// A second floor for the warm echo turn, beside the bare relay: the least an AG-UI adapter behind
// Express does for a text turn, with none of the packages' machinery (no pool, session, thread
// record, human-in-the-loop bridge, tools, resumable stream or abort). It reads the RunAgentInput,
// checks it is a text chat, sends the last message to its emulator conversation, answers with
// RUN_STARTED (echoing the request's text as its input), translates the model's text steps into
// TEXT_MESSAGE_* events and ends with RUN_FINISHED (with the turn's usage) on the final idle. Events
// carry `id:` lines and the events of one tick go out in one write, as the Express binding's do.
// What it costs beyond the relay is what any adapter pays; what the packages cost beyond it is
// theirs. One turn at a time: the benchmark drives it that way.
import { randomUUID } from "node:crypto";
import express from "express";
import { openEmulatorConversation } from "./emulator-conversation.mjs";

const isTextMessage = (message) =>
  typeof message === "object" && message !== null && typeof message.id === "string" && typeof message.role === "string" && typeof message.content === "string";

/** A RunAgentInput of a text chat whose last message is the user's, or undefined. */
function textChatOf(text) {
  let input;
  try {
    input = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof input?.threadId !== "string" || typeof input.runId !== "string" || !Array.isArray(input.messages)) return undefined;
  if (!input.messages.every(isTextMessage) || input.messages.at(-1)?.role !== "user") return undefined;
  return input;
}

/** Spawns an emulator, opens one conversation on it and serves `POST /` as a lean adapter of its turns. */
export async function startLeanAdapter({ model }) {
  const conversation = await openEmulatorConversation({ model });
  const { socket } = conversation;
  let current;

  socket.on("message", (data) => {
    const turn = current;
    if (turn === undefined) return;
    const frame = JSON.parse(data.toString());
    const step = frame.stepUpdate;
    if (step?.source === "SOURCE_MODEL" && typeof step.textDelta === "string" && step.textDelta !== "") {
      if (turn.messageId === undefined) {
        turn.messageId = randomUUID();
        turn.emit({ type: "TEXT_MESSAGE_START", messageId: turn.messageId, role: "assistant" });
      }
      turn.emit({ type: "TEXT_MESSAGE_CONTENT", messageId: turn.messageId, delta: step.textDelta });
    }
    if (frame.usageUpdate?.total !== undefined) turn.usage = frame.usageUpdate.total;
    if (frame.trajectoryStateUpdate?.state === "STATE_FULLY_IDLE") {
      if (turn.messageId !== undefined) turn.emit({ type: "TEXT_MESSAGE_END", messageId: turn.messageId });
      const usage = turn.usage === undefined ? {} : { usage: [{ inputTokens: Number(turn.usage.promptTokenCount ?? 0), outputTokens: Number(turn.usage.candidatesTokenCount ?? 0) }] };
      turn.emit({ type: "RUN_FINISHED", threadId: turn.input.threadId, runId: turn.input.runId, ...usage });
      current = undefined;
      turn.response.end(turn.takePending());
    }
  });

  const app = express();
  app.post("/", (request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString();
      const input = textChatOf(text);
      if (input === undefined) {
        response.status(400).json({ code: "INVALID_INPUT" });
        return;
      }
      let sequence = 0;
      let pending = "";
      let flushScheduled = false;
      const flush = () => {
        flushScheduled = false;
        if (pending !== "" && current === turn) response.write(turn.takePending());
      };
      const queue = (data) => {
        pending += `id: ${input.runId}:${sequence}\ndata: ${data}\n\n`;
        sequence += 1;
        if (flushScheduled) return;
        flushScheduled = true;
        queueMicrotask(() => process.nextTick(flush));
      };
      const turn = {
        input,
        response,
        messageId: undefined,
        usage: undefined,
        emit: (event) => queue(JSON.stringify(event)),
        takePending: () => {
          const chunk = pending;
          pending = "";
          return chunk;
        },
      };
      current = turn;
      socket.send(JSON.stringify({ userInput: { parts: [{ text: input.messages.at(-1).content }] } }));
      response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      // The request's text is its input, unless a line break in it would end the SSE line.
      const inputText = text.includes("\n") || text.includes("\r") ? JSON.stringify(input) : text;
      queue(`{"type":"RUN_STARTED","threadId":${JSON.stringify(input.threadId)},"runId":${JSON.stringify(input.runId)},"input":${inputText}}`);
    });
  });
  const server = await new Promise((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    server,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await conversation.close();
    },
  };
}
