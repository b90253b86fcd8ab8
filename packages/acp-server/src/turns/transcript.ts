import type { SessionUpdate } from "@agentclientprotocol/sdk";

type ToolCallUpdate = Extract<SessionUpdate, { sessionUpdate: "tool_call" }>;

const chunkKinds = new Set(["user_message_chunk", "agent_message_chunk", "agent_thought_chunk"]);

/**
 * What a session sent, in the form `session/load` replays it: consecutive text chunks of one kind
 * merged into one, and each tool call as one `tool_call` in its final state (its updates folded
 * in), where it first appeared. Collected per prompt; the session store appends each prompt's.
 */
export class Transcript {
  #entries: SessionUpdate[] = [];
  readonly #toolCalls = new Map<string, ToolCallUpdate>();

  add(update: SessionUpdate): void {
    if (chunkKinds.has(update.sessionUpdate)) {
      const chunk = update as Extract<SessionUpdate, { sessionUpdate: "agent_message_chunk" }>;
      const last = this.#entries.at(-1) as typeof chunk | undefined;
      if (last?.sessionUpdate === chunk.sessionUpdate && last.content.type === "text" && chunk.content.type === "text") {
        this.#entries[this.#entries.length - 1] = { ...last, content: { ...last.content, text: last.content.text + chunk.content.text } };
        return;
      }
      this.#entries.push(structuredClone(update));
      return;
    }
    if (update.sessionUpdate === "tool_call") {
      const copy = structuredClone(update);
      this.#toolCalls.set(update.toolCallId, copy);
      this.#entries.push(copy);
      return;
    }
    if (update.sessionUpdate === "tool_call_update") {
      const call = this.#toolCalls.get(update.toolCallId);
      if (call === undefined) return;
      const { sessionUpdate: _kind, ...fields } = structuredClone(update);
      for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null) (call as Record<string, unknown>)[key] = value;
      return;
    }
    if (update.sessionUpdate === "plan") this.#entries.push(structuredClone(update));
  }

  /** The entries since the last call, which are then forgotten here. */
  take(): SessionUpdate[] {
    const taken = this.#entries;
    this.#entries = [];
    this.#toolCalls.clear();
    return taken;
  }
}
