import type { HarnessDialect } from "../protocol/dialect.js";
import type { HarnessSideTools } from "../protocol/messages.js";

/** Builtin tools by the names the SDKs and policies use (`start_subagent` is `invoke_subagent` on the wire). */
export const BUILTIN_TOOL_NAMES = [
  "list_directory",
  "search_directory",
  "find_file",
  "view_file",
  "create_file",
  "edit_file",
  "run_command",
  "start_subagent",
  "ask_question",
  "generate_image",
  "search_web",
  "read_url_content",
  "finish",
  /** A task list the model keeps (harness 0.1.13+). */
  "manage_task",
  /** The model schedules later turns of its own (harness 0.1.13+). */
  "schedule",
  /** The model runs workflow scripts (harness 0.1.21+). */
  "run_workflow",
] as const;
/** The name of one builtin tool, as `builtinTools` and tool policies spell it. */
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

/** What a conversation gets unless it asks otherwise: looking, never touching. */
export const DEFAULT_BUILTIN_TOOLS: readonly BuiltinToolName[] = ["list_directory", "search_directory", "find_file", "view_file", "finish"];

/** Builtins that change the machine; enabling one needs a policy or a pre-tool hook (the safety gate). */
export const WRITE_CAPABLE_BUILTIN_TOOLS: readonly BuiltinToolName[] = ["create_file", "edit_file", "run_command", "run_workflow"];

type ToggleKey = Exclude<keyof HarnessSideTools, "permissions" | "toolSearchConfig">;

/** The release that added each builtin's toggle, for those not in every release. */
const TOGGLE_SINCE: Partial<Record<BuiltinToolName, string>> = { manage_task: "0.1.13", schedule: "0.1.13", run_workflow: "0.1.21" };

/** HarnessSideTools toggle key per builtin; `finish` has no toggle. */
const TOGGLE_BY_BUILTIN: Readonly<Record<Exclude<BuiltinToolName, "finish">, ToggleKey>> = {
  find_file: "find",
  run_command: "runCommand",
  start_subagent: "subagents",
  ask_question: "userQuestions",
  edit_file: "fileEdit",
  view_file: "viewFile",
  create_file: "writeToFile",
  search_directory: "grepSearch",
  list_directory: "listDir",
  generate_image: "generateImage",
  search_web: "searchWeb",
  read_url_content: "readUrlContent",
  manage_task: "manageTask",
  schedule: "schedule",
  run_workflow: "runWorkflow",
};

/**
 * Every toggle the harness's release has, written explicitly: the harness treats an absent toggle
 * as enabled (genai-rs), so leaving one out would switch a tool on (0.1.18 enables schedule and
 * manage_task by default). A builtin the release lacks is written only when asked for, so the
 * release check refuses it by name instead of the harness refusing the init.
 */
export function harnessSideToolsFor(enabled: readonly BuiltinToolName[], options: { allowSubagents: boolean; dialect: HarnessDialect }): HarnessSideTools {
  const wanted = new Set(enabled);
  const tools: HarnessSideTools = {};
  for (const [builtin, key] of Object.entries(TOGGLE_BY_BUILTIN) as [Exclude<BuiltinToolName, "finish">, ToggleKey][]) {
    const since = TOGGLE_SINCE[builtin];
    if (since !== undefined && !options.dialect.isAtLeast(since) && !wanted.has(builtin)) continue;
    const on = wanted.has(builtin) && (builtin !== "start_subagent" || options.allowSubagents);
    tools[key] = { enabled: on };
  }
  return tools;
}
