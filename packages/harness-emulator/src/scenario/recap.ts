import type { StepUpdate } from "../wire/output-messages.js";

/**
 * A paragraph of a transcript prompt: `user: <text>`. Clients that rebuild a lost conversation send
 * its transcript as one prompt of `role: text` paragraphs (the agent's rebuild prompt does); a
 * model reading it sees several user messages, and so does the scripted one.
 */
const transcriptUserParagraph = /^user: ([\s\S]*)$/;

/** The user messages one input carries: the paragraphs of a transcript, or the input itself. */
function userMessagesOf(text: string): string[] {
  const paragraphs = text.split(/\n{2,}/);
  const quoted = paragraphs.flatMap((paragraph) => {
    const match = transcriptUserParagraph.exec(paragraph);
    return match?.[1] === undefined ? [] : [match[1].trim()];
  });
  return quoted.length > 0 ? quoted : [text.trim()];
}

/**
 * What the user asks for now: the input itself, or the last user paragraph of a transcript a client
 * sent to rebuild a lost conversation. Rules match this, not the recap of earlier turns.
 */
export function newestUserMessage(text: string): string {
  return userMessagesOf(text).at(-1) ?? text;
}

/**
 * The user messages of a conversation before the latest one, oldest first, from the user inputs of
 * its main trajectory (the latest input, the current turn's, is already in the history).
 */
export function earlierUserMessages(history: readonly StepUpdate[], mainTrajectoryId: string): string[] {
  const messages = history
    .filter((step) => step.trajectoryId === mainTrajectoryId && step.source === "SOURCE_USER" && typeof step.text === "string")
    .sort((left, right) => left.stepIndex - right.stepIndex)
    .flatMap((step) => userMessagesOf(step.text ?? ""))
    .filter((message) => message !== "");
  return messages.slice(0, -1);
}

/** Numbered, quoted lines, or `(none)` for a conversation that has just begun. */
export function formatRecap(messages: readonly string[]): string {
  if (messages.length === 0) return "(none)";
  return messages.map((message, index) => `${index + 1}. ${JSON.stringify(message)}`).join("\n");
}
