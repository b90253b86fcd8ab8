import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { CustomTool } from "@ag-ui-antigravity/harness";
import { CodedError, nameErrorClass } from "@ag-ui-antigravity/foundation";

/** Larger contents are refused: this is a demo sandbox, not file storage. */
export const maximumFileBytes = 64 * 1024;

/** A write_file call the sandbox refuses. */
export class WriteFileError extends CodedError<"PATH_OUTSIDE_SANDBOX" | "CONTENT_TOO_LARGE" | "INVALID_ARGUMENTS"> {
  static {
    nameErrorClass(this, "WriteFileError");
  }
}

/**
 * The directory a conversation writes into. Named from a digest of the conversation id so no id
 * can name a path outside the root.
 */
export function sandboxDirectory(root: string, conversationId: string): string {
  return join(resolve(root), createHash("sha256").update(conversationId).digest("hex").slice(0, 16));
}

/** `path` inside `directory`, or an error: absolute paths and `..` escapes are refused. */
export function sandboxedPath(directory: string, path: string): string {
  if (path.trim() === "" || isAbsolute(path) || path.includes("\0")) throw new WriteFileError("PATH_OUTSIDE_SANDBOX", `"${path}" is not a relative file path.`);
  const target = resolve(directory, path);
  const fromDirectory = relative(directory, target);
  if (fromDirectory === "" || fromDirectory.startsWith("..") || isAbsolute(fromDirectory)) {
    throw new WriteFileError("PATH_OUTSIDE_SANDBOX", `"${path}" is outside the sandbox.`);
  }
  return target;
}

export interface WriteFileToolOptions {
  /** Each conversation gets its own directory under this root. */
  sandboxRoot: string;
}

/**
 * `write_file`: the write-capable tool of the tool_approval demo. It really writes (into a
 * per-conversation sandbox under the server's temporary root), which is why the agent gates it
 * behind an approval interrupt.
 */
export function createWriteFileTool(options: WriteFileToolOptions): CustomTool {
  return {
    name: "write_file",
    description:
      "Write a text file (creating or replacing it) in the user's sandbox. The user is asked to approve every call and may edit the arguments first; " +
      "if they deny it, the result says why and nothing was written.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "A relative path such as 'notes.txt' or 'drafts/plan.md'." },
        content: { type: "string", description: "The whole text of the file." },
      },
      required: ["path", "content"],
    },
    handler: async (args, context) => {
      const path = args["path"];
      const content = args["content"];
      if (typeof path !== "string" || typeof content !== "string") throw new WriteFileError("INVALID_ARGUMENTS", "write_file needs a string path and a string content.");
      const bytes = Buffer.byteLength(content, "utf8");
      if (bytes > maximumFileBytes) throw new WriteFileError("CONTENT_TOO_LARGE", `The content is ${bytes} bytes; at most ${maximumFileBytes} are allowed.`);
      const directory = sandboxDirectory(options.sandboxRoot, context.conversationId);
      const target = sandboxedPath(directory, path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, content, { encoding: "utf8", signal: context.signal });
      return { ok: true, path: relative(directory, target), bytes };
    },
  };
}
