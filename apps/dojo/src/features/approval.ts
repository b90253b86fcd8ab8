import type { Interrupt, Message, ResumeEntry } from "@ag-ui/client";
import { toolCallsOf } from "../agent/conversation";
import { isRecord, parseJsonSafely } from "../agent/json";

/** What an approval card shows and may send, read from the interrupt and the call it names. */
export interface ApprovalRequest {
  toolName: string;
  args: unknown;
  /** Approve-with-edits is offered only when the responseSchema declares `editedArgs` (AG-UI's signal). */
  canEdit: boolean;
  /** The payload key for a denial's reason: `reason` when the schema has it (this project), else `message` (the reference adapter). */
  denialKey: "reason" | "message";
}

function isApprovalReason(reason: string): boolean {
  return reason === "tool_call" || reason === "tool_approval";
}

/** Whether an interrupt asks to approve a tool call. */
export function isApprovalInterrupt(interrupt: Interrupt): boolean {
  const properties = isRecord(interrupt.responseSchema) && isRecord(interrupt.responseSchema["properties"]) ? interrupt.responseSchema["properties"] : {};
  return isApprovalReason(interrupt.reason) || (interrupt.toolCallId !== undefined && "approved" in properties);
}

/**
 * Reads the tool name and arguments from the interrupt's metadata (`toolName` / `arguments`, or the
 * reference adapter's `tool_name` / `args`), falling back to the tool call in the conversation.
 */
export function approvalRequestOf(interrupt: Interrupt, messages: readonly Message[]): ApprovalRequest {
  const metadata = isRecord(interrupt.metadata) ? interrupt.metadata : {};
  const toolCall = toolCallsOf(messages).find((call) => call.id === interrupt.toolCallId);
  const metadataName = metadata["toolName"] ?? metadata["tool_name"];
  const metadataArgs = metadata["arguments"] ?? metadata["args"];
  const args = metadataArgs === undefined ? parseJsonSafely(toolCall?.function.arguments) : typeof metadataArgs === "string" ? (parseJsonSafely(metadataArgs) ?? metadataArgs) : metadataArgs;
  const properties = isRecord(interrupt.responseSchema) && isRecord(interrupt.responseSchema["properties"]) ? interrupt.responseSchema["properties"] : {};
  return {
    toolName: typeof metadataName === "string" ? metadataName : (toolCall?.function.name ?? "a tool"),
    args: args ?? {},
    canEdit: "editedArgs" in properties,
    denialKey: "reason" in properties ? "reason" : "message",
  };
}

/**
 * The tool calls the user refused in these answers to `interrupts`: an approval answered
 * `{approved: false}`, or cancelled. Keyed by the interrupt's `toolCallId`, so the call's card can
 * say "Denied" even though the server reports the refusal as the call's result.
 */
export function deniedToolCallIds(interrupts: readonly Interrupt[], entries: readonly ResumeEntry[]): string[] {
  return entries.flatMap((entry) => {
    const interrupt = interrupts.find((candidate) => candidate.id === entry.interruptId);
    if (interrupt?.toolCallId === undefined || !isApprovalInterrupt(interrupt)) return [];
    const refused = entry.status === "cancelled" || (isRecord(entry.payload) && entry.payload["approved"] === false);
    return refused ? [interrupt.toolCallId] : [];
  });
}

/** `{ approved: false }`, with the user's reason under the key the schema names when one was given. */
export function denialPayload(request: ApprovalRequest, reason: string): Record<string, unknown> {
  const trimmed = reason.trim();
  return trimmed === "" ? { approved: false } : { approved: false, [request.denialKey]: trimmed };
}
