import { fileURLToPath } from "node:url";
import type { UserInputPart } from "@ag-ui-antigravity/harness";
import type { ContentBlock, SessionUpdate } from "@agentclientprotocol/sdk";
import { AcpServerError } from "../sessions/acp-server-error.js";

/** Prompt text beyond this is refused: a model's context is far smaller anyway. */
const MAX_PROMPT_TEXT_CHARS = 2_000_000;
/** MIME types the harness takes as media parts. */
const MEDIA_TYPE = /^(image\/(png|jpeg|webp|gif|heic|heif)|application\/pdf)$/;

/** A prompt as the harness's turn input, and as the user message the transcript keeps. */
export interface PromptInput {
  parts: UserInputPart[];
  userMessage: SessionUpdate[];
}

/** The path a `file://` URI names, or the URI itself. */
function shownUri(uri: string): string {
  if (!uri.startsWith("file://")) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}

/**
 * ACP content blocks as turn input: text as text; a resource link as a line naming it (the agent
 * reads it with its own tools); an embedded text resource as its text in a `<context>` block; an
 * image (or an embedded image / PDF) as a media part. Audio, and binary resources of other types,
 * are refused: `initialize` does not offer them.
 */
export function promptInput(blocks: readonly ContentBlock[]): PromptInput {
  const parts: UserInputPart[] = [];
  let textChars = 0;
  const addText = (text: string): void => {
    textChars += text.length;
    if (textChars > MAX_PROMPT_TEXT_CHARS) throw new AcpServerError("INVALID_REQUEST", `The prompt is too long (over ${MAX_PROMPT_TEXT_CHARS} characters of text).`);
    const last = parts.at(-1);
    if (last !== undefined && "text" in last) parts[parts.length - 1] = { text: `${last.text}\n${text}` };
    else parts.push({ text });
  };
  for (const block of blocks) {
    switch (block.type) {
      case "text":
        addText(block.text);
        break;
      case "resource_link":
        addText(`[${block.title ?? block.name}](${shownUri(block.uri)})`);
        break;
      case "resource": {
        const resource = block.resource;
        if ("text" in resource) addText(`<context ref="${shownUri(resource.uri)}">\n${resource.text}\n</context>`);
        else if (MEDIA_TYPE.test(resource.mimeType ?? "")) parts.push({ media: { mimeType: resource.mimeType ?? "", data: resource.blob, description: shownUri(resource.uri) } });
        else throw new AcpServerError("INVALID_REQUEST", `Embedded resources of type ${resource.mimeType ?? "(none)"} are not supported; send text, images or PDFs.`);
        break;
      }
      case "image":
        if (!MEDIA_TYPE.test(block.mimeType)) throw new AcpServerError("INVALID_REQUEST", `Images of type ${block.mimeType} are not supported (png, jpeg, webp, gif, heic, heif).`);
        parts.push({ media: { mimeType: block.mimeType, data: block.data } });
        break;
      default:
        throw new AcpServerError("INVALID_REQUEST", `Prompt content of type ${block.type} is not supported.`);
    }
  }
  if (parts.length === 0 || parts.every((part) => "text" in part && part.text.trim() === "")) {
    throw new AcpServerError("INVALID_REQUEST", "The prompt is empty.");
  }
  return { parts, userMessage: blocks.map((content): SessionUpdate => ({ sessionUpdate: "user_message_chunk", content })) };
}
