import type { StepToolCall } from "@ag-ui-antigravity/harness";
import type { CommandOutputContent } from "./activity-types.js";

/** The result field that carries each live-output builtin's output, and the argument that names what it runs. */
const LIVE_OUTPUT_TOOLS: Readonly<Record<string, { output: string; command: readonly string[] }>> = {
  run_command: { output: "combinedOutput", command: ["commandLine"] },
  run_workflow: { output: "output", command: ["scriptPath", "description"] },
};

/** The most output characters one activity holds; past it, the tool's result has the rest. */
export const MAX_LIVE_OUTPUT = 64 * 1024;

/**
 * A command's output as it grows: the harness re-sends the command's step with its output so far
 * (cumulative), and the client gets it as chunks it appends. Output that does not extend what was
 * seen (the harness re-sent it differently) starts the chunks anew.
 */
export class LiveOutput {
  readonly content: CommandOutputContent;
  /** The messageId of the activity. */
  readonly messageId: string;
  #seen = "";
  #kept = 0;

  constructor(messageId: string, toolCallId: string, tool: StepToolCall) {
    this.messageId = messageId;
    const spec = LIVE_OUTPUT_TOOLS[tool.name];
    const command = spec?.command.map((name) => tool.arguments[name]).find((value): value is string => typeof value === "string" && value !== "");
    this.content = { toolCallId, toolName: tool.name, ...(command === undefined ? {} : { command }), chunks: [], running: true };
  }

  /** Whether this tool streams its output, and the output so far on this delivery of its step. */
  static outputOf(tool: StepToolCall): string | undefined {
    const spec = LIVE_OUTPUT_TOOLS[tool.name];
    if (spec === undefined || tool.kind !== "builtin") return undefined;
    const value = tool.result?.[spec.output];
    return typeof value === "string" ? value : undefined;
  }

  /** Takes the output so far; true when the content changed. */
  update(output: string): boolean {
    if (output === this.#seen || this.content.truncated === true) return false;
    if (output.startsWith(this.#seen)) {
      this.#append(output.slice(this.#seen.length));
    } else {
      this.content.chunks = [];
      this.#kept = 0;
      this.#append(output);
    }
    this.#seen = output;
    return true;
  }

  /** The command ended: its exit code, when the step says one. */
  finish(tool: StepToolCall): void {
    const output = LiveOutput.outputOf(tool);
    if (output !== undefined) this.update(output);
    this.content.running = false;
    const exitCode = Number(tool.result?.["exitCode"]);
    if (tool.result?.["exitCode"] !== undefined && Number.isSafeInteger(exitCode)) this.content.exitCode = exitCode;
  }

  #append(text: string): void {
    if (text === "") return;
    const room = MAX_LIVE_OUTPUT - this.#kept;
    if (text.length > room) {
      if (room > 0) this.content.chunks.push(text.slice(0, room));
      this.#kept = MAX_LIVE_OUTPUT;
      this.content.truncated = true;
      return;
    }
    this.content.chunks.push(text);
    this.#kept += text.length;
  }
}
