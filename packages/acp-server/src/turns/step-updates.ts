import type { NormalizedStep, StepStatus } from "@ag-ui-antigravity/harness";
import type { SessionUpdate, ToolCallContent, ToolCallStatus } from "@agentclientprotocol/sdk";
import { diffContent, readDiskText, type PendingEdit } from "./file-edits.js";
import type { ToolCallBook } from "./tool-call-book.js";
import { commandLineOf, describeToolCall } from "./tool-call-view.js";

/** Tool output shown in a client is cut to its end past this many characters. */
const MAX_SHOWN_OUTPUT = 32_000;
/** Statuses remembered per session; the oldest are forgotten past this. */
const MAX_REMEMBERED_CALLS = 2_000;

const isTerminal = (status: ToolCallStatus | undefined): boolean => status === "completed" || status === "failed";

function toolStatusOf(status: StepStatus): ToolCallStatus {
  if (status === "done") return "completed";
  if (status === "error") return "failed";
  if (status === "active") return "in_progress";
  return "pending";
}

const textContent = (text: string): ToolCallContent => ({ type: "content", content: { type: "text", text } });

function tail(text: string): string {
  return text.length > MAX_SHOWN_OUTPUT ? `…${text.slice(-MAX_SHOWN_OUTPUT)}` : text;
}

/** A fenced block that no backtick run inside `text` can close early. */
function fenced(text: string, info = ""): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = "`".repeat(longest + 1);
  return `${fence}${info}\n${text}${text.endsWith("\n") ? "" : "\n"}${fence}`;
}

/**
 * Harness steps as ACP `session/update`s, one session's worth (tool calls keep their status across
 * the deliveries of their step): text and thinking deltas of the main trajectory become message and
 * thought chunks, tool steps become `tool_call` then `tool_call_update`s, finished ones with their
 * content (a diff for a file edit, the output for a command), error steps a message.
 */
export class StepUpdates {
  readonly #book: ToolCallBook;
  readonly #edits: Map<string, PendingEdit>;
  readonly #status = new Map<string, ToolCallStatus>();

  /** `edits` holds the files calls are about to change, by tool call id (filled by the permission gate). */
  constructor(book: ToolCallBook, edits: Map<string, PendingEdit>) {
    this.#book = book;
    this.#edits = edits;
  }

  /** Marks a call a hook announced with a `tool_call` of its own before its step came. */
  markAnnounced(toolCallId: string): void {
    this.#remember(toolCallId, "pending");
  }

  /** The updates one delivery of a step makes (often none). */
  async updatesFor(step: NormalizedStep): Promise<SessionUpdate[]> {
    if (step.source === "user") return [];
    if (step.tool !== undefined) return this.#toolUpdates(step, step.tool);
    if (!step.isMainTrajectory) return [];
    const updates: SessionUpdate[] = [];
    if (step.thinkingDelta !== "") updates.push({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: step.thinkingDelta } });
    if (step.textDelta !== "") updates.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: step.textDelta } });
    if (step.kind === "error" && step.error !== undefined && !this.#status.has(`error:${step.id}`)) {
      this.#remember(`error:${step.id}`, "failed");
      updates.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `\n\nError: ${step.error.message}\n` } });
    }
    return updates;
  }

  async #toolUpdates(step: NormalizedStep, tool: NonNullable<NormalizedStep["tool"]>): Promise<SessionUpdate[]> {
    const toolCallId = this.#book.idOf(step.id) ?? step.id;
    const previous = this.#status.get(toolCallId);
    const status = toolStatusOf(step.status);
    if (isTerminal(previous)) return [];
    const updates: SessionUpdate[] = [];
    if (previous === undefined) {
      const view = describeToolCall(tool, tool.arguments);
      updates.push({
        sessionUpdate: "tool_call",
        toolCallId,
        title: view.title,
        kind: view.kind,
        status: isTerminal(status) ? "in_progress" : status,
        locations: view.locations,
        rawInput: tool.arguments,
      });
    }
    if (isTerminal(status)) {
      updates.push({ sessionUpdate: "tool_call_update", toolCallId, status, content: await this.#finishedContent(toolCallId, step, tool), ...(tool.result === undefined ? {} : { rawOutput: tool.result }) });
      this.#edits.delete(toolCallId);
    } else if (previous !== undefined && previous !== status) {
      updates.push({ sessionUpdate: "tool_call_update", toolCallId, status });
    }
    this.#remember(toolCallId, status);
    return updates;
  }

  async #finishedContent(toolCallId: string, step: NormalizedStep, tool: NonNullable<NormalizedStep["tool"]>): Promise<ToolCallContent[]> {
    if (step.status === "error") {
      const message = step.error?.message ?? (step.text === "" ? "The tool call failed." : step.text);
      return [textContent(message)];
    }
    const result = tool.result ?? {};
    switch (tool.serverName === undefined ? tool.name : "") {
      case "run_command": {
        const output = typeof result["combinedOutput"] === "string" ? result["combinedOutput"] : "";
        const command = commandLineOf(tool.arguments);
        const exit = typeof result["exitCode"] === "number" && result["exitCode"] !== 0 ? `\nexit code ${result["exitCode"]}` : "";
        return [textContent(`${fenced(`${command === undefined ? "" : `$ ${command}\n`}${tail(output)}`, "console")}${exit}`)];
      }
      case "create_file":
      case "edit_file":
        return this.#editContent(toolCallId, tool);
      case "list_directory": {
        const entries = Array.isArray(result["results"]) ? (result["results"] as Record<string, unknown>[]) : [];
        const names = entries.map((entry) => `${String(entry["name"] ?? "")}${entry["isDirectory"] === true ? "/" : ""}`);
        return names.length === 0 ? [] : [textContent(tail(names.join("\n")))];
      }
      case "find_file":
        return typeof result["output"] === "string" && result["output"] !== "" ? [textContent(tail(result["output"]))] : [];
      case "search_directory":
        return typeof result["numResults"] === "number" ? [textContent(`${result["numResults"]} matching line(s)`)] : [];
      case "view_file":
        return [];
      default:
        if (step.text !== "") return [textContent(tail(step.text))];
        return Object.keys(result).length === 0 ? [] : [textContent(tail(JSON.stringify(result, null, 2)))];
    }
  }

  /** The diff of a finished edit: the file as captured before it ran against the file now. */
  async #editContent(toolCallId: string, tool: NonNullable<NormalizedStep["tool"]>): Promise<ToolCallContent[]> {
    const pending = this.#edits.get(toolCallId);
    if (pending !== undefined) {
      const now = await readDiskText(pending.path);
      const diff = diffContent(pending.path, pending.before, typeof now === "string" ? now : pending.proposed);
      if (diff !== undefined) return [diff];
    }
    // Nothing captured before the call (no hook saw it): the harness's own diff blocks, as hunks.
    const path = typeof tool.arguments["filePath"] === "string" ? tool.arguments["filePath"] : undefined;
    const blocks = Array.isArray(tool.result?.["diffBlock"]) ? (tool.result["diffBlock"] as Record<string, unknown>[]) : [];
    if (path === undefined) return [];
    if (tool.name === "create_file" && typeof tool.arguments["contents"] === "string") return [{ type: "diff", path, oldText: null, newText: tool.arguments["contents"] }];
    return blocks.flatMap((block): ToolCallContent[] => {
      const lines = Array.isArray(block["lines"]) ? (block["lines"] as Record<string, unknown>[]) : [];
      const side = (action: string): string => lines.filter((line) => line["action"] === action || line["action"] === "LINE_ACTION_NONE").map((line) => String(line["text"] ?? "")).join("\n");
      return lines.length === 0 ? [] : [{ type: "diff", path, oldText: side("LINE_ACTION_DELETE"), newText: side("LINE_ACTION_INSERT") }];
    });
  }

  #remember(toolCallId: string, status: ToolCallStatus): void {
    this.#status.delete(toolCallId);
    this.#status.set(toolCallId, status);
    if (this.#status.size > MAX_REMEMBERED_CALLS) {
      const oldest = this.#status.keys().next().value;
      if (oldest !== undefined) this.#status.delete(oldest);
    }
  }
}
