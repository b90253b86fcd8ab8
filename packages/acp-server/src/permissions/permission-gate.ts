import type { ConfirmationHookArgs, ConversationHooks, PreToolHookArgs, PreToolHookResult } from "@ag-ui-antigravity/harness";
import { methods, type PermissionOption, type ToolCallContent, type ToolCallUpdate } from "@agentclientprotocol/sdk";
import { capturePendingEdit, diffContent, readDiskText, type FileText, type PendingEdit } from "../turns/file-edits.js";
import { commandLineOf, describeToolCall, toolClassOf, type ToolIdentity } from "../turns/tool-call-view.js";
import { askUser, NoAnswer, type PermissionState, type PromptInteraction } from "./prompt-interaction.js";
import { modeDecision, type DecisionOrigin, type ToolClass } from "./session-modes.js";

/** The session a hook belongs to, as the gate needs it; undefined interaction while no prompt runs. */
export interface GateContext {
  interaction: PromptInteraction | undefined;
  state: PermissionState;
}

const ALLOW_ONCE = "allow-once";
const ALLOW_ALWAYS = "allow-always";
const REJECT = "reject";

/**
 * What "always" covers: file edits as a whole, commands by their program (`git …`), an MCP tool by
 * its server and name, any other tool by its name.
 */
export function permissionKey(tool: ToolIdentity, toolClass: ToolClass, args: Record<string, unknown>): { key: string; label: string } {
  if (toolClass === "edit") return { key: "edit", label: "Always allow file edits in this session" };
  if (toolClass === "execute") {
    const program = (commandLineOf(args) ?? "").trim().split(/\s+/)[0] ?? "";
    return program === "" ? { key: "execute", label: "Always allow commands in this session" } : { key: `execute:${program}`, label: `Always allow \`${program}\` commands in this session` };
  }
  if (toolClass === "mcp") return { key: `mcp:${tool.serverName ?? ""}/${tool.name}`, label: `Always allow ${tool.serverName ?? ""}: ${tool.name} in this session` };
  return { key: `tool:${tool.name}`, label: `Always allow ${tool.name} in this session` };
}

/** What the user is shown of a call before it runs: the diff an edit would make, the command a run would start. */
function proposedContent(tool: ToolIdentity, args: Record<string, unknown>, pending: PendingEdit | undefined): ToolCallContent[] {
  if (pending !== undefined) {
    const diff = diffContent(pending.path, pending.before, pending.proposed);
    if (diff !== undefined) return [diff];
  }
  const command = tool.name === "run_command" ? commandLineOf(args) : undefined;
  return command === undefined ? [] : [{ type: "content", content: { type: "text", text: command } }];
}

/** Reads the file an edit is about to change: through the client when it offers reads (its open buffer), else from disk. */
function beforeReader(interaction: PromptInteraction): (path: string) => Promise<FileText> {
  return async (path) => {
    if (interaction.capabilities.fs?.readTextFile === true) {
      try {
        const { content } = await interaction.client.request(methods.client.fs.readTextFile, { sessionId: interaction.sessionId, path }, { cancellationSignal: interaction.signal, stopWaitingOnCancel: true });
        return content;
      } catch {
        // A client that cannot read the file (not open, not there, outside its project) leaves it to the disk.
      }
    }
    return readDiskText(path);
  };
}

type Verdict = { allowed: true } | { allowed: false; reason: string };

/**
 * Asks the user about one call with `session/request_permission` (allow once, allow always,
 * reject); the call is announced first if no step has shown it yet. Anything but an allow is a
 * refusal, with a reason the model reads: a rejection, a cancelled prompt, a client that could not
 * answer (an error), or no answer within the permission timeout.
 */
async function askPermission(context: { interaction: PromptInteraction; state: PermissionState }, call: { toolCallId: string; announced: boolean; tool: ToolIdentity; toolClass: ToolClass; args: Record<string, unknown>; pending: PendingEdit | undefined }): Promise<Verdict> {
  const { interaction, state } = context;
  const view = describeToolCall(call.tool, call.args);
  const { key, label } = permissionKey(call.tool, call.toolClass, call.args);
  const shown = { toolCallId: call.toolCallId, title: view.title, kind: view.kind, status: "pending" as const, locations: view.locations, content: proposedContent(call.tool, call.args, call.pending), rawInput: call.args };
  const toolCall: ToolCallUpdate = shown;
  if (!call.announced) {
    interaction.updates.markAnnounced(call.toolCallId);
    interaction.channel.enqueue(() => [{ sessionUpdate: "tool_call", ...shown }]);
  }
  // The call's tool_call must reach the client before the question about it.
  await interaction.channel.flush();
  const options: PermissionOption[] = [
    { optionId: ALLOW_ONCE, name: "Allow", kind: "allow_once" },
    { optionId: ALLOW_ALWAYS, name: label, kind: "allow_always" },
    { optionId: REJECT, name: "Reject", kind: "reject_once" },
  ];
  try {
    const { outcome } = await askUser(interaction, (signal) =>
      interaction.client.request(methods.client.session.requestPermission, { sessionId: interaction.sessionId, toolCall, options }, { cancellationSignal: signal, stopWaitingOnCancel: true }),
    );
    if (outcome.outcome === "selected" && outcome.optionId === ALLOW_ALWAYS) state.allowAlways(key);
    if (outcome.outcome === "selected" && (outcome.optionId === ALLOW_ONCE || outcome.optionId === ALLOW_ALWAYS)) return { allowed: true };
    if (outcome.outcome === "cancelled") return { allowed: false, reason: "The user cancelled the turn; the tool call did not run." };
    return { allowed: false, reason: "The user rejected this tool call. Do not retry it; ask the user what to do instead." };
  } catch (error) {
    const why = error instanceof NoAnswer ? error.why : "failed";
    if (why === "cancelled") return { allowed: false, reason: "The user cancelled the turn; the tool call did not run." };
    if (why === "timeout") return { allowed: false, reason: `Nobody answered the permission request for ${view.title}; it was refused. Do not retry it.` };
    return { allowed: false, reason: `The editor could not be asked for permission, so ${view.title} was refused for safety. Do not retry it.` };
  }
}

/** The hook's reply when the mode or an "always" decides without asking; undefined when the user must be asked. */
function decideWithoutAsking(context: GateContext, tool: ToolIdentity, toolClass: ToolClass, args: Record<string, unknown>, origin: DecisionOrigin): Verdict | undefined {
  const decision = modeDecision(context.state.mode, toolClass, origin);
  if (decision === "deny") return { allowed: false, reason: `This session is in ${context.state.mode} mode: ${tool.name} is not allowed. Tell the user what you would change instead.` };
  if (decision === "allow") return { allowed: true };
  if (context.state.alwaysAllowed.has(permissionKey(tool, toolClass, args).key)) return { allowed: true };
  return undefined;
}

/**
 * The conversation hooks that put permission at the moment of action: every tool call passes the
 * pre-tool gate (the session's mode, its "always" choices, else `session/request_permission`), and
 * a confirmation the harness asks for on its own is decided the same way, once per call. A file an
 * edit is about to change is read first, so the request and the finished call show its diff.
 */
export function permissionHooks(current: () => GateContext): Pick<ConversationHooks, "preTool" | "onConfirmation"> {
  return {
    preTool: async (args: PreToolHookArgs): Promise<PreToolHookResult> => {
      const context = current();
      const tool: ToolIdentity = { name: args.toolName, serverName: args.serverName };
      const toolClass = toolClassOf(tool);
      const settled = decideWithoutAsking(context, tool, toolClass, args.arguments, "pre-tool");
      if (settled?.allowed === false) return { decision: "deny", reason: settled.reason };
      if (settled?.allowed === true && toolClass !== "edit") return { decision: "allow" };
      const interaction = context.interaction;
      if (interaction === undefined) {
        return settled?.allowed === true ? { decision: "allow" } : { decision: "deny", reason: `${args.toolName} needs the user's permission, and no prompt is running to ask it in.` };
      }
      const claimed = await interaction.book.claim(tool, { signal: interaction.signal });
      const pending = await capturePendingEdit(args.toolName, args.arguments, beforeReader(interaction));
      if (pending !== undefined) interaction.edits.set(claimed.toolCallId, pending);
      const verdict = settled ?? (await askPermission({ interaction, state: context.state }, { ...claimed, tool, toolClass, args: args.arguments, pending }));
      if (!verdict.allowed) return { decision: "deny", reason: verdict.reason };
      interaction.approved.add(claimed.toolCallId);
      return { decision: "allow" };
    },
    onConfirmation: async (args: ConfirmationHookArgs): Promise<boolean> => {
      const context = current();
      const interaction = context.interaction;
      if (interaction === undefined) return false;
      const claimed = interaction.book.claimStep(args.step);
      if (interaction.approved.has(claimed.toolCallId)) return true;
      const tool: ToolIdentity = args.step.tool ?? { name: args.toolName ?? "tool" };
      const toolArgs = args.step.tool?.arguments ?? args.arguments;
      const toolClass = toolClassOf(tool);
      const settled = decideWithoutAsking(context, tool, toolClass, toolArgs, "confirmation");
      if (settled !== undefined) return settled.allowed;
      let pending = interaction.edits.get(claimed.toolCallId);
      if (pending === undefined) {
        pending = await capturePendingEdit(tool.name, toolArgs, beforeReader(interaction));
        if (pending !== undefined) interaction.edits.set(claimed.toolCallId, pending);
      }
      const verdict = await askPermission({ interaction, state: context.state }, { ...claimed, tool, toolClass, args: toolArgs, pending });
      if (verdict.allowed) interaction.approved.add(claimed.toolCallId);
      return verdict.allowed;
    },
  };
}
