import { spawn } from "node:child_process";
import { mkdir, readFile, readdir, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { EmulatorError } from "../errors/emulator-error.js";
import type { WorkspaceGuard } from "./workspace-guard.js";

/**
 * Builtins the emulator knows, by wire name. The first seven run for real; image generation, web
 * search and URL reading are answered with canned results because the emulator has no model and
 * no network.
 */
export const builtinToolNames = [
  "list_directory",
  "view_file",
  "find_file",
  "search_directory",
  "create_file",
  "edit_file",
  "run_command",
  "generate_image",
  "search_web",
  "read_url_content",
] as const;
export type BuiltinToolName = (typeof builtinToolNames)[number];

export function isBuiltinToolName(name: string): name is BuiltinToolName {
  return (builtinToolNames as readonly string[]).includes(name);
}

/** StepUpdate action field of each builtin. */
export const builtinActionField: Record<BuiltinToolName, string> = {
  list_directory: "listDirectory",
  view_file: "viewFile",
  find_file: "findFile",
  search_directory: "searchDirectory",
  create_file: "createFile",
  edit_file: "editFile",
  run_command: "runCommand",
  generate_image: "generateImage",
  search_web: "searchWeb",
  read_url_content: "readUrlContent",
};

/** A builtin call: what the step shows first, then what it shows at DONE, and what hooks and the model see. */
export interface BuiltinPlan {
  /** Action sub-message on the first (ACTIVE / WAITING_FOR_USER) update: inputs only. */
  inputs: Record<string, unknown>;
  /** Runs the tool; resolves with the DONE view. `progress` re-sends the ACTIVE view with results so far (a command's output). */
  run(options: { signal: AbortSignal; progress?: (action: Record<string, unknown>) => void }): Promise<BuiltinOutcome>;
}

/**
 * How often a running command's output so far is re-sent on its ACTIVE step, once it has run for
 * COMMAND_PROGRESS_AFTER_MS [inferred: nothing public says whether or how the harness streams a
 * command's output; the client works either way]. A quick command shows its output only at DONE,
 * so the frames of short commands are the same as ever.
 */
export const COMMAND_PROGRESS_INTERVAL_MS = 100;
export const COMMAND_PROGRESS_AFTER_MS = 250;

export interface BuiltinOutcome {
  /** Inputs plus results, for the DONE update. */
  action: Record<string, unknown>;
  /** Step `text` at DONE, when the harness sets one. */
  text?: string;
  /** `postToolArgs.result`: snake_case JSON for structured builtins, plain text otherwise. */
  hookResult: string;
  /** What the scripted model "sees", exposed to scenarios as `{{lastToolResult}}`. */
  modelResult: string;
}

const maxOutputBytes = 1024 * 1024;
const maxWalkEntries = 20_000;

function stringArgument(args: Record<string, unknown>, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = args[name];
    if (typeof value === "string") return value;
  }
  return undefined;
}

function requireString(args: Record<string, unknown>, tool: string, ...names: string[]): string {
  const value = stringArgument(args, ...names);
  if (value === undefined) throw new EmulatorError("TOOL_FAILED", `${tool}: missing argument ${names[0] ?? ""}`);
  return value;
}

/** Entries under `root`, breadth first; symlinks are followed only to files inside the workspaces, never into directories. */
async function* walk(root: string, guard: WorkspaceGuard, signal: AbortSignal): AsyncGenerator<{ path: string; isDirectory: boolean }> {
  const queue = [root];
  let seen = 0;
  while (queue.length > 0) {
    signal.throwIfAborted();
    const directory = queue.shift() as string;
    let entries;
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      seen += 1;
      if (seen > maxWalkEntries) return;
      const path = join(directory, entry.name);
      if (entry.isSymbolicLink()) {
        if (!guard.contains(path)) continue;
        const target = await stat(path).catch(() => undefined);
        if (target === undefined || target.isDirectory()) continue;
        yield { path, isDirectory: false };
        continue;
      }
      if (entry.isDirectory()) {
        if (entry.name === "node_modules" || entry.name === ".git") continue;
        queue.push(path);
      }
      yield { path, isDirectory: entry.isDirectory() };
    }
  }
}

function globToRegExp(query: string): RegExp {
  if (!/[*?]/.test(query)) return new RegExp(query.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i");
  const source = query.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".");
  return new RegExp(`^${source}$`, "i");
}

/**
 * Decodes UTF-8, dropping a multi-byte character cut off at the end by the output bound (it would
 * otherwise decode to a replacement character the program never printed).
 */
function decodeUtf8(bytes: Buffer): string {
  let end = bytes.length;
  let back = 0;
  while (back < 3 && end - back - 1 >= 0 && ((bytes[end - back - 1] as number) & 0xc0) === 0x80) back += 1;
  const lead = bytes[end - back - 1];
  if (lead !== undefined && lead >= 0xc0) {
    const expected = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
    if (back + 1 < expected) end -= back + 1;
  }
  return bytes.subarray(0, end).toString("utf8");
}

/** Runs a shell command in its own process group so an abort kills everything it started. */
export function runShell(options: {
  commandLine: string;
  cwd: string;
  env: Record<string, string>;
  signal: AbortSignal;
  /** Told the output so far every COMMAND_PROGRESS_INTERVAL_MS while it grows, from COMMAND_PROGRESS_AFTER_MS on. */
  onProgress?: (outputSoFar: string) => void;
}): Promise<{ exitCode: number; output: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn("/bin/sh", ["-c", options.commandLine], {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
      shell: false,
    });
    // Bytes are kept and decoded once: decoding per chunk would split multi-byte characters.
    const chunks: Buffer[] = [];
    let collected = 0;
    const append = (chunk: Buffer): void => {
      if (collected >= maxOutputBytes) return;
      const kept = chunk.subarray(0, maxOutputBytes - collected);
      chunks.push(kept);
      collected += kept.length;
    };
    child.stdout.on("data", append);
    child.stderr.on("data", append);
    let reported = 0;
    const onProgress = options.onProgress;
    const startedAt = Date.now();
    const progress =
      onProgress === undefined
        ? undefined
        : setInterval(() => {
            if (collected === reported || Date.now() - startedAt < COMMAND_PROGRESS_AFTER_MS) return;
            reported = collected;
            onProgress(decodeUtf8(Buffer.concat(chunks)));
          }, COMMAND_PROGRESS_INTERVAL_MS);
    const onAbort = (): void => {
      if (child.pid !== undefined) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    };
    options.signal.addEventListener("abort", onAbort, { once: true });
    child.on("error", (error) => {
      clearInterval(progress);
      options.signal.removeEventListener("abort", onAbort);
      reject(new EmulatorError("TOOL_FAILED", `run_command: ${error.message}`, { cause: error }));
    });
    child.on("close", (code, signalName) => {
      clearInterval(progress);
      options.signal.removeEventListener("abort", onAbort);
      if (options.signal.aborted) {
        reject(options.signal.reason);
        return;
      }
      resolvePromise({ exitCode: code ?? (signalName === null ? 0 : 128), output: decodeUtf8(Buffer.concat(chunks)) });
    });
  });
}

export interface BuiltinContext {
  guard: WorkspaceGuard;
  /** Environment for run_command: a minimal allow-list plus InputConfig.env. */
  commandEnv: Record<string, string>;
}

/**
 * Validates a builtin call and prepares it. Path arguments are checked against the workspaces here,
 * before any step is shown as running, so a violation surfaces as the step's error.
 */
export function planBuiltin(name: BuiltinToolName, args: Record<string, unknown>, context: BuiltinContext): BuiltinPlan {
  const { guard } = context;
  switch (name) {
    case "list_directory": {
      const directoryPath = guard.check(requireString(args, name, "directory_path", "DirectoryPath", "path"));
      return {
        inputs: { directoryPath },
        run: async () => {
          const entries = await readdir(directoryPath, { withFileTypes: true });
          entries.sort((left, right) => left.name.localeCompare(right.name));
          const results: Record<string, unknown>[] = [];
          const hookResults: Record<string, unknown>[] = [];
          for (const entry of entries) {
            if (entry.isDirectory()) {
              results.push({ name: entry.name, isDirectory: true });
              hookResults.push({ name: entry.name, is_directory: true });
            } else {
              const size = (await stat(join(directoryPath, entry.name)).catch(() => ({ size: 0 }))).size;
              results.push({ name: entry.name, fileSize: String(size) });
              hookResults.push({ name: entry.name, file_size: size });
            }
          }
          return {
            action: { directoryPath, results },
            hookResult: JSON.stringify({ results: hookResults }),
            modelResult: entries.map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name)).join(", ") || "(empty)",
          };
        },
      };
    }
    case "view_file": {
      const filePath = guard.check(requireString(args, name, "file_path", "AbsolutePath", "TargetFile", "path"));
      const startLine = typeof args["start_line"] === "number" ? args["start_line"] : undefined;
      const endLine = typeof args["end_line"] === "number" ? args["end_line"] : undefined;
      const inputs: Record<string, unknown> = { filePath };
      if (startLine !== undefined) inputs["startLine"] = startLine;
      if (endLine !== undefined) inputs["endLine"] = endLine;
      return {
        inputs,
        run: async () => {
          const content = await readFile(filePath, "utf8");
          const lines = content.split("\n");
          const shown = lines.slice(startLine ?? 0, endLine === undefined ? undefined : endLine + 1).join("\n");
          return { action: inputs, text: "File viewing", hookResult: shown, modelResult: shown };
        },
      };
    }
    case "find_file": {
      const directoryPath = guard.check(stringArgument(args, "directory_path", "SearchDirectory", "path") ?? guard.roots[0] ?? ".");
      const query = requireString(args, name, "query", "Pattern", "pattern");
      return {
        inputs: { directoryPath, query },
        run: async ({ signal }) => {
          const matcher = globToRegExp(query);
          const found: string[] = [];
          for await (const entry of walk(directoryPath, guard, signal)) {
            if (matcher.test(basename(entry.path))) found.push(entry.path);
          }
          const output = found.join("\n");
          return { action: { directoryPath, query, output }, hookResult: JSON.stringify({ output }), modelResult: output || "(no matches)" };
        },
      };
    }
    case "search_directory": {
      const directoryPath = guard.check(stringArgument(args, "directory_path", "SearchPath", "path") ?? guard.roots[0] ?? ".");
      const query = requireString(args, name, "query", "Query");
      return {
        inputs: { directoryPath, query },
        run: async ({ signal }) => {
          const matches: string[] = [];
          for await (const entry of walk(directoryPath, guard, signal)) {
            if (entry.isDirectory) continue;
            const info = await stat(entry.path).catch(() => undefined);
            if (info === undefined || info.size > maxOutputBytes) continue;
            const content = await readFile(entry.path, "utf8").catch(() => "");
            if (content.includes("\u0000")) continue;
            content.split("\n").forEach((line, index) => {
              if (line.includes(query)) matches.push(`${entry.path}:${index + 1}: ${line}`);
            });
          }
          return {
            action: { directoryPath, query, numResults: matches.length },
            hookResult: JSON.stringify({ num_results: matches.length }),
            modelResult: matches.slice(0, 50).join("\n") || "(no matches)",
          };
        },
      };
    }
    case "create_file": {
      const filePath = guard.check(requireString(args, name, "file_path", "TargetFile", "path"));
      const contents = stringArgument(args, "contents", "CodeContent", "content") ?? "";
      return {
        inputs: { filePath, contents },
        run: async () => {
          await mkdir(dirname(filePath), { recursive: true });
          await writeFile(filePath, contents, "utf8");
          return { action: { filePath, contents }, hookResult: `Created file ${filePath}`, modelResult: `Created file ${filePath}` };
        },
      };
    }
    case "edit_file": {
      const filePath = guard.check(requireString(args, name, "file_path", "TargetFile", "path"));
      const replacementsRaw = Array.isArray(args["replacements"]) ? args["replacements"] : [];
      const replacements = replacementsRaw.map((entry) => {
        const record = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
        return { target: String(record["target"] ?? ""), replacement: String(record["replacement"] ?? "") };
      });
      return {
        inputs: { filePath },
        run: async () => {
          let content = await readFile(filePath, "utf8");
          const diffBlock: Record<string, unknown>[] = [];
          for (const { target, replacement } of replacements) {
            const offset = content.indexOf(target);
            if (target === "" || offset < 0) throw new EmulatorError("TOOL_FAILED", `edit_file: target not found in ${filePath}`);
            const startLine = content.slice(0, offset).split("\n").length - 1;
            const removed = target.split("\n");
            const added = replacement.split("\n");
            diffBlock.push({
              startLine,
              endLine: startLine + removed.length,
              lines: [
                ...removed.map((text) => ({ text, action: "LINE_ACTION_DELETE" })),
                ...added.map((text) => ({ text, action: "LINE_ACTION_INSERT" })),
              ],
            });
            content = content.slice(0, offset) + replacement + content.slice(offset + target.length);
          }
          await writeFile(filePath, content, "utf8");
          const summary = `Applied ${replacements.length} edits to ${filePath}`;
          return { action: { filePath, diffBlock }, text: summary, hookResult: JSON.stringify({ summary }), modelResult: summary };
        },
      };
    }
    case "generate_image": {
      const prompt = requireString(args, name, "prompt", "Prompt");
      const aspectRatio = stringArgument(args, "aspect_ratio", "AspectRatio") ?? "1:1";
      const imageName = stringArgument(args, "image_name", "ImageName") ?? (prompt.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "") || "image");
      const inputs: Record<string, unknown> = { prompt };
      const imagePaths = Array.isArray(args["image_paths"]) ? args["image_paths"].filter((path): path is string => typeof path === "string") : [];
      if (imagePaths.length > 0) inputs["imagePaths"] = imagePaths.map((path) => guard.check(path));
      if (stringArgument(args, "aspect_ratio", "AspectRatio") !== undefined) inputs["aspectRatio"] = aspectRatio;
      return {
        inputs,
        run: () =>
          Promise.resolve({
            action: { ...inputs, imageName, aspectRatio },
            hookResult: JSON.stringify({ image_name: imageName }),
            modelResult: `Generated image ${imageName} (${aspectRatio}, emulated: no image was rendered)`,
          }),
      };
    }
    case "search_web": {
      const query = requireString(args, name, "query", "Query");
      const domain = stringArgument(args, "domain", "Domain");
      const inputs: Record<string, unknown> = domain === undefined ? { query } : { query, domain };
      const summary = `${query} search results (emulated: the emulator has no network access)`;
      return {
        inputs,
        run: () => Promise.resolve({ action: { ...inputs, summary }, hookResult: JSON.stringify({ summary }), modelResult: summary }),
      };
    }
    case "read_url_content": {
      const url = requireString(args, name, "url", "Url");
      return {
        inputs: { url },
        run: () => {
          const title = new URL(url).hostname;
          const summary = `Content of ${url} (emulated: the emulator has no network access)`;
          return Promise.resolve({
            action: { url, title, summary, contentPath: "" },
            hookResult: JSON.stringify({ title, summary, content_path: "" }),
            modelResult: summary,
          });
        },
      };
    }
    case "run_command": {
      const commandLine = requireString(args, name, "CommandLine", "command_line", "command");
      const cwdArgument = stringArgument(args, "Cwd", "working_dir", "cwd");
      const workingDir = cwdArgument === undefined ? guard.roots[0] ?? process.cwd() : guard.check(cwdArgument);
      return {
        inputs: { commandLine, workingDir },
        run: async ({ signal, progress }) => {
          const { exitCode, output } = await runShell({
            commandLine,
            cwd: workingDir,
            env: context.commandEnv,
            signal,
            ...(progress === undefined ? {} : { onProgress: (combinedOutput: string) => progress({ commandLine, workingDir, combinedOutput }) }),
          });
          return {
            action: { commandLine, workingDir, exitCode, combinedOutput: output },
            hookResult: JSON.stringify({ combined_output: output }),
            modelResult: output.trim() === "" ? `(exit code ${exitCode}, no output)` : output.trim(),
          };
        },
      };
    }
  }
}
