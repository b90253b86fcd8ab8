import { readFile, stat } from "node:fs/promises";
import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { filePathOf, stringArgument } from "./tool-call-view.js";

/** Files larger than this are not shown as diffs: an editor's diff view is no place for them. */
export const MAX_DIFF_FILE_BYTES = 1024 * 1024;

/**
 * A file's text, or `null` when it does not exist; `undefined` when it cannot be read (too large,
 * binary, unreadable): then no diff is shown.
 */
export type FileText = string | null | undefined;

/** Reads a file from disk for a diff. */
export async function readDiskText(path: string): Promise<FileText> {
  try {
    const info = await stat(path);
    if (!info.isFile() || info.size > MAX_DIFF_FILE_BYTES) return undefined;
    const text = await readFile(path, "utf8");
    return text.includes("\u0000") ? undefined : text;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? null : undefined;
  }
}

/** `edit_file`'s replacements, in the model-facing spelling its hook arguments use. */
function replacementsOf(args: Record<string, unknown>): { target: string; replacement: string }[] | undefined {
  const raw = args["replacements"];
  if (!Array.isArray(raw)) return undefined;
  return raw.map((entry) => {
    const record = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
    return { target: String(record["target"] ?? ""), replacement: String(record["replacement"] ?? "") };
  });
}

/**
 * The text a file will have once `create_file` or `edit_file` runs with these arguments, from its
 * text now: each replacement swaps the first occurrence of its target, in order. Undefined when it
 * cannot be told (a target that is not there, no arguments to go on).
 */
export function proposedText(toolName: string, args: Record<string, unknown>, before: FileText): string | undefined {
  if (toolName === "create_file") return stringArgument(args, ["contents", "CodeContent", "content"]) ?? "";
  if (toolName !== "edit_file" || typeof before !== "string") return undefined;
  const replacements = replacementsOf(args);
  if (replacements === undefined || replacements.length === 0) return undefined;
  let text = before;
  for (const { target, replacement } of replacements) {
    const offset = text.indexOf(target);
    if (target === "" || offset < 0) return undefined;
    text = text.slice(0, offset) + replacement + text.slice(offset + target.length);
  }
  return text;
}

/** A diff for a client to show, when both sides are known and small enough. */
export function diffContent(path: string, before: FileText, after: string | undefined): ToolCallContent | undefined {
  if (before === undefined || after === undefined) return undefined;
  if (Buffer.byteLength(after) > MAX_DIFF_FILE_BYTES) return undefined;
  return { type: "diff", path, oldText: before, newText: after };
}

/**
 * A file a tool call is about to change, captured before it runs (the moment permission is asked,
 * or the pre-tool gate lets it through), so the finished call can show what changed.
 */
export interface PendingEdit {
  path: string;
  before: FileText;
  /** What the file will be if the call does what its arguments say. */
  proposed: string | undefined;
}

/** The file and its expected result of a `create_file` / `edit_file` call; undefined for other tools. */
export async function capturePendingEdit(toolName: string, args: Record<string, unknown>, readBefore: (path: string) => Promise<FileText>): Promise<PendingEdit | undefined> {
  if (toolName !== "create_file" && toolName !== "edit_file") return undefined;
  const path = filePathOf(args);
  if (path === undefined) return undefined;
  const before = await readBefore(path);
  return { path, before, proposed: proposedText(toolName, args, before) };
}
