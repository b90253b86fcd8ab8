import type { StepUpdate } from "../protocol/messages.js";

/** How a StepUpdate action field maps to a tool call. */
export interface BuiltinActionSpec {
  /** The builtin's wire name (`list_directory`, ...). */
  name: string;
  kind: "builtin" | "subagent";
  /**
   * The action's input fields (docs/protocol.md, "Steps"). Used to split arguments from result
   * when a step is first seen already finished, so a result never leaks into the arguments.
   */
  inputFields: readonly string[];
}

/** Builtin tool action fields of StepUpdate, by field name. MCP and custom tools are handled apart. */
export const BUILTIN_ACTIONS = {
  listDirectory: { name: "list_directory", kind: "builtin", inputFields: ["directoryPath"] },
  findFile: { name: "find_file", kind: "builtin", inputFields: ["directoryPath", "query"] },
  searchDirectory: { name: "search_directory", kind: "builtin", inputFields: ["directoryPath", "query"] },
  viewFile: { name: "view_file", kind: "builtin", inputFields: ["filePath", "startLine", "endLine"] },
  createFile: { name: "create_file", kind: "builtin", inputFields: ["filePath", "contents"] },
  editFile: { name: "edit_file", kind: "builtin", inputFields: ["filePath"] },
  runCommand: { name: "run_command", kind: "builtin", inputFields: ["commandLine", "workingDir"] },
  generateImage: { name: "generate_image", kind: "builtin", inputFields: ["prompt", "imagePaths", "aspectRatio"] },
  searchWeb: { name: "search_web", kind: "builtin", inputFields: ["query", "domain"] },
  readUrlContent: { name: "read_url_content", kind: "builtin", inputFields: ["url"] },
  invokeSubagent: { name: "invoke_subagent", kind: "subagent", inputFields: [] },
  /** The model listed, looked up or read skills (harness 0.1.19). */
  skillLookup: { name: "skill_lookup", kind: "builtin", inputFields: ["operation", "requestedSkillNames"] },
  /** The model ran a workflow script (harness 0.1.21). */
  runWorkflow: { name: "run_workflow", kind: "builtin", inputFields: ["scriptPath", "description", "script"] },
} as const satisfies Partial<Record<keyof StepUpdate, BuiltinActionSpec>>;

export type BuiltinActionField = keyof typeof BUILTIN_ACTIONS;

export const BUILTIN_ACTION_FIELDS = Object.keys(BUILTIN_ACTIONS) as BuiltinActionField[];
