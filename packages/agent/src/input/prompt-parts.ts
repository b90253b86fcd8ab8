import type { Message, UserMessage } from "@ag-ui/client";
import { AgentError } from "../errors/agent-error.js";

/** One piece of a prompt for the harness: text, or inline media the model can see. */
export type PromptPart = { kind: "text"; text: string } | { kind: "media"; mimeType: string; data: string; description?: string };

/**
 * Media types the harness forwards to Gemini inline: every release takes a media part of any type
 * (docs/protocol.md, "Messages"), and these are the ones Gemini reads inline, audio and video
 * included. Anything else becomes a note the model can read.
 */
const inlineMimeTypes = new Set([
  "image/png",
  "image/jpeg",
  "image/webp",
  "image/bmp",
  "application/pdf",
  "text/plain",
  "text/csv",
  "application/json",
  "text/html",
  "application/xml",
  "text/xml",
  "audio/wav",
  "audio/x-wav",
  "audio/mp3",
  "audio/mpeg",
  "audio/aiff",
  "audio/aac",
  "audio/ogg",
  "audio/flac",
  "audio/webm",
  "video/mp4",
  "video/mpeg",
  "video/mpg",
  "video/mov",
  "video/quicktime",
  "video/avi",
  "video/x-flv",
  "video/webm",
  "video/wmv",
  "video/3gpp",
]);

type UserContent = UserMessage["content"];
type ContentPart = Exclude<UserContent, string>[number];

// Standard or URL-safe alphabet, padding only at the end, and a length a base64 encoder can produce.
const base64Pattern = /^(?:[A-Za-z0-9+/]+|[A-Za-z0-9_-]+)={0,2}$/;

function isBase64(data: string): boolean {
  return data.length > 0 && data.length % 4 !== 1 && base64Pattern.test(data);
}

const dataUrlPattern = /^data:([^;,]+)(?:;[^,]*)?;base64,(.*)$/s;

/** The text of any message's content, for transcripts and comparisons. */
export function contentText(content: Message["content"] | undefined): string {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (typeof part === "object" && part !== null && "text" in part && typeof part.text === "string" ? part.text : ""))
    .filter((text) => text.length > 0)
    .join("\n");
}

/**
 * What becomes of an attachment that is not valid base64: `refuse` the run (the message the user
 * just sent: they are told, and nothing is sent), or a `note` in its place (a message that comes
 * back in the history after its run was refused: the thread goes on, and the model is told).
 */
export type BrokenAttachment = "refuse" | "note";

/**
 * Turns a user message's content into prompt parts. Inline data (and `data:` URLs) of a supported
 * type becomes media (images, PDF, text, audio, video); anything the harness cannot pass to the
 * model (remote URLs, file references, GIF, other types) becomes a one-line note, so the model says
 * it could not see it instead of pretending it did. Nothing the user sent is dropped silently.
 */
export function promptPartsOf(content: UserContent, brokenAttachment: BrokenAttachment = "refuse"): PromptPart[] {
  if (typeof content === "string") return content.trim().length === 0 ? [] : [{ kind: "text", text: content }];
  const parts: PromptPart[] = [];
  for (const part of content) {
    const converted = convertPart(part, brokenAttachment);
    if (converted !== undefined) parts.push(converted);
  }
  return parts;
}

function convertPart(part: ContentPart, brokenAttachment: BrokenAttachment): PromptPart | undefined {
  if (part.type === "text") return part.text.trim().length === 0 ? undefined : { kind: "text", text: part.text };
  const source = part.source;
  let mimeType = source.mimeType;
  let data: string | undefined;
  if (source.type === "data") {
    data = source.value;
    const dataUrl = dataUrlPattern.exec(source.value);
    if (dataUrl !== null) {
      mimeType = dataUrl[1] ?? mimeType;
      data = dataUrl[2];
    }
  } else if (source.type === "url") {
    const dataUrl = dataUrlPattern.exec(source.value);
    if (dataUrl !== null) {
      mimeType = dataUrl[1] ?? mimeType;
      data = dataUrl[2];
    }
  }
  const normalizedMime = mimeType?.toLowerCase().trim();
  if (data !== undefined && normalizedMime !== undefined && inlineMimeTypes.has(normalizedMime)) {
    const compact = data.replace(/\s+/g, "");
    if (!isBase64(compact)) {
      // The harness refuses the whole turn for bad base64; refusing the run here names the problem
      // and leaves the thread as it was. Once refused, the message comes back with every later run
      // (clients resend their history): then it goes with a note instead, or the thread could never
      // run again.
      if (brokenAttachment === "refuse") throw new AgentError("INVALID_INPUT", `An attachment (${normalizedMime}) is not valid base64 data; nothing was sent. Fix or remove it and send again.`);
      return { kind: "text", text: `[The user attached ${part.type === "image" ? "an image" : `a ${part.type}`} (${normalizedMime}) whose data was not valid base64; the server refused it when it was sent, and it cannot be shown to you.]` };
    }
    return { kind: "media", mimeType: normalizedMime, data: compact };
  }
  const where = source.type === "data" ? "inline data" : source.type === "url" ? `the URL ${source.value.slice(0, 200)}` : `the file reference ${source.value.slice(0, 200)}`;
  return {
    kind: "text",
    text: `[The user attached ${part.type === "image" ? "an image" : `a ${part.type}`}${normalizedMime ? ` (${normalizedMime})` : ""} from ${where}, which cannot be shown to you; tell the user you could not see it.]`,
  };
}
