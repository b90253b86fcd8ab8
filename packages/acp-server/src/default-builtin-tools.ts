import type { BuiltinToolName } from "@ag-ui-antigravity/harness";

/** The builtin tools a session gets by default: the agent can read, search, edit, run commands and ask. */
export const DEFAULT_ACP_BUILTIN_TOOLS: readonly BuiltinToolName[] = [
  "list_directory",
  "search_directory",
  "find_file",
  "view_file",
  "create_file",
  "edit_file",
  "run_command",
  "ask_question",
  "finish",
];
