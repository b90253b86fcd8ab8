import type { Message, RunAgentInput, UserMessage } from "@ag-ui/client";
import type { UserInputPart } from "@ag-ui-antigravity/harness";
import { AgentError } from "../errors/agent-error.js";
import { type CheckedHistory, checkHistory } from "../input/history-limits.js";
import { type ForwardedMessage, fingerprintMessage, forwardedWindow } from "../input/message-fingerprint.js";
import { readHistory, transcriptUpTo } from "../input/new-user-messages.js";
import { contentText, type PromptPart, promptPartsOf } from "../input/prompt-parts.js";

/** What a run brings to the conversation, decided from its input and the session's memory. */
export interface RunPlan {
  /** Prompt for a new turn, or undefined when the run only answers or resumes. */
  prompt?: UserInputPart[];
  /** The forwarded-message list once the prompt is delivered. */
  forwarded: ForwardedMessage[];
  /** The conversation must be rebuilt first (the client's history diverged from it). */
  rebuild: boolean;
}

/** Whether the run carries answers to something parked: resume entries, a command, or a trailing tool result. */
export function carriesAnswers(input: RunAgentInput): boolean {
  const command = (input.forwardedProps as Record<string, unknown> | undefined)?.command;
  return (input.resume?.length ?? 0) > 0 || command !== undefined || input.messages.at(-1)?.role === "tool";
}

/**
 * Every user message new since the last run is forwarded, in order; an edited or regenerated
 * history rebuilds the conversation from the client's own transcript rather than being ignored.
 * A history with repeated ids, or a newest user message with an attachment that is not base64, is
 * refused (INVALID_INPUT) before the thread is touched.
 */
export function planRun(options: {
  input: RunAgentInput;
  forwarded: readonly ForwardedMessage[];
  turnInProgress: boolean;
  /** The thread's last checked history, which the check of this one builds on. */
  checked?: CheckedHistory;
}): RunPlan {
  const { input } = options;
  const userMessages = options.checked === undefined ? checkHistory(input.messages) : options.checked.check(input.messages);
  const reading = readHistory({ messages: input.messages, forwarded: options.forwarded, carriesAnswers: carriesAnswers(input), userMessages });
  if (reading.kind === "continue") {
    const messages = reading.newUserMessages;
    if (messages.length === 0) return { forwarded: [...options.forwarded], rebuild: false };
    // Only the message the user just sent may be refused for a broken attachment; an earlier one that
    // comes back new was refused when it was sent (the client resends its history) and goes with a note.
    const latest = userMessages.at(-1);
    return {
      prompt: toInputParts(
        messages.flatMap((message, index) => [...(index > 0 ? [{ kind: "text" as const, text: "\n" }] : []), ...promptPartsOf(message.content, message === latest ? "refuse" : "note")]),
      ),
      forwarded: forwardedWindow([...options.forwarded, ...messages.map(remembered)]),
      rebuild: false,
    };
  }
  if (options.turnInProgress) {
    throw new AgentError(
      "HISTORY_DIVERGED",
      "The conversation was edited while the agent waits on a reply; answer the pending request first, or start a new thread.",
    );
  }
  return transcriptPlan(input, reading.reason);
}

/**
 * A plan that rebuilds the conversation from the client's history as it now stands: one prompt
 * holding the transcript, with the last user message's attachments. Used when the history was
 * edited or regenerated, and when the harness lost the conversation's history (a crash before it
 * persisted), so the model never continues without the context the user sees.
 */
export function transcriptPlan(input: RunAgentInput, reason: "edited" | "regenerate" | "lost"): RunPlan {
  const userMessages = input.messages.filter((message): message is UserMessage => message.role === "user");
  const { transcript, lastUserMessage } = transcriptUpTo(input.messages, userMessages.length - 1);
  const attachments = lastUserMessage === undefined ? [] : promptPartsOf(lastUserMessage.content).filter((part) => part.kind === "media");
  const prefaces = {
    regenerate: "The user asked for a new answer to their last message. Here is the conversation so far:",
    edited: "The user edited the conversation. Here it is as it now stands:",
    lost: "This conversation was interrupted and its history lost. Here it is as the user sees it:",
  } as const;
  return {
    prompt: toInputParts([{ kind: "text", text: `${prefaces[reason]}\n\n${transcript}\n\nReply to the last user message.` }, ...attachments]),
    forwarded: forwardedWindow(userMessages.map(remembered)),
    rebuild: true,
  };
}

function remembered(message: Message): ForwardedMessage {
  return fingerprintMessage(message.id, contentText(message.content));
}

function toInputParts(parts: PromptPart[]): UserInputPart[] {
  return parts.map((part) =>
    part.kind === "text" ? { text: part.text } : { media: { mimeType: part.mimeType, data: part.data, ...(part.description === undefined ? {} : { description: part.description }) } },
  );
}
