import { isAbsolute } from "node:path";
import type { ToolCallLocation, ToolKind } from "@agentclientprotocol/sdk";
import type { ToolClass } from "../permissions/session-modes.js";

/** A tool call as the harness names it: a builtin's wire name, an MCP tool (with its server) or a custom tool. */
export interface ToolIdentity {
  name: string;
  serverName?: string | undefined;
}

/** How a client shows a tool call: a title, an icon (kind) and the files it touches. */
export interface ToolCallView {
  title: string;
  kind: ToolKind;
  locations: ToolCallLocation[];
}

// The harness reports arguments in two spellings: the model-facing ones of a hook's `argumentsJson`
// (`file_path`, `CommandLine`) and the step's camelCase action fields (`filePath`, `commandLine`)
// (docs/protocol.md, "Steps"). Each reader accepts both, and the older model-facing aliases.
const PATH_KEYS = ["file_path", "filePath", "TargetFile", "AbsolutePath", "path"];
const DIRECTORY_KEYS = ["directory_path", "directoryPath", "DirectoryPath", "SearchDirectory", "SearchPath", "path"];
const COMMAND_KEYS = ["CommandLine", "commandLine", "command_line", "command"];
const QUERY_KEYS = ["query", "Query", "Pattern", "pattern"];

/** The first string argument under any of `keys`. */
export function stringArgument(args: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = args[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

/** The file a file tool reads or writes, when its arguments name one. */
export function filePathOf(args: Record<string, unknown>): string | undefined {
  return stringArgument(args, PATH_KEYS);
}

/** The command line of a `run_command` call. */
export function commandLineOf(args: Record<string, unknown>): string | undefined {
  return stringArgument(args, COMMAND_KEYS);
}

/** What asking the user is about: changing files, running commands, an MCP tool, or only looking. */
export function toolClassOf(tool: ToolIdentity): ToolClass {
  if (tool.serverName !== undefined) return "mcp";
  if (tool.name === "create_file" || tool.name === "edit_file") return "edit";
  if (tool.name === "run_command") return "execute";
  return "read";
}

const clip = (text: string, length = 120): string => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

function locationsOf(path: string | undefined, line?: number): ToolCallLocation[] {
  if (path === undefined || !isAbsolute(path)) return [];
  return [line === undefined ? { path } : { path, line }];
}

/** The title, kind and locations of a tool call, from its name and whichever arguments are known. */
export function describeToolCall(tool: ToolIdentity, args: Record<string, unknown>): ToolCallView {
  if (tool.serverName !== undefined) return { title: `${tool.serverName}: ${tool.name}`, kind: "other", locations: [] };
  const path = filePathOf(args);
  const directory = stringArgument(args, DIRECTORY_KEYS);
  const query = stringArgument(args, QUERY_KEYS);
  switch (tool.name) {
    case "view_file": {
      const start = typeof args["start_line"] === "number" ? args["start_line"] : typeof args["startLine"] === "number" ? args["startLine"] : undefined;
      return { title: `Read ${path ?? "a file"}`, kind: "read", locations: locationsOf(path, start === undefined ? undefined : start + 1) };
    }
    case "list_directory":
      return { title: `List ${directory ?? "a directory"}`, kind: "read", locations: locationsOf(directory) };
    case "find_file":
      return { title: `Find files matching "${clip(query ?? "")}"${directory === undefined ? "" : ` in ${directory}`}`, kind: "search", locations: [] };
    case "search_directory":
      return { title: `Search for "${clip(query ?? "")}"${directory === undefined ? "" : ` in ${directory}`}`, kind: "search", locations: [] };
    case "create_file":
      return { title: `Create ${path ?? "a file"}`, kind: "edit", locations: locationsOf(path) };
    case "edit_file":
      return { title: `Edit ${path ?? "a file"}`, kind: "edit", locations: locationsOf(path) };
    case "run_command":
      return { title: `Run \`${clip(commandLineOf(args) ?? "a command", 200)}\``, kind: "execute", locations: [] };
    case "search_web":
      return { title: `Search the web for "${clip(query ?? "")}"`, kind: "fetch", locations: [] };
    case "read_url_content":
      return { title: `Fetch ${clip(stringArgument(args, ["url", "Url"]) ?? "a page", 200)}`, kind: "fetch", locations: [] };
    case "generate_image":
      return { title: `Generate an image: ${clip(stringArgument(args, ["prompt", "Prompt"]) ?? "")}`, kind: "other", locations: [] };
    case "invoke_subagent":
      return { title: `Run subagent ${stringArgument(args, ["subagentName", "name", "Name"]) ?? ""}`.trimEnd(), kind: "other", locations: [] };
    default:
      return { title: tool.name, kind: "other", locations: [] };
  }
}
