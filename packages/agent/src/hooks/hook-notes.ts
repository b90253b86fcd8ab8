import type { AGUIEvent } from "@ag-ui/client";
import type { CompactionNote, ContinuationNote, StepTranslator, ToolHookNote } from "@ag-ui-antigravity/translator";

/**
 * What the agent learns from the harness's hooks rather than its steps. Each is relayed through the
 * thread's HITL bridge (or, for a turn the harness started itself, the session's own queue), so it
 * reaches the translator between the steps it came between.
 */
export type HookNote =
  | { kind: "tool"; note: ToolHookNote }
  | { kind: "continuation"; note: ContinuationNote }
  | { kind: "compaction"; note: CompactionNote };

const KINDS = new Set(["tool", "continuation", "compaction"]);

/** Whether a relayed note is one of the agent's (the bridge carries notes it never reads). */
export function isHookNote(value: unknown): value is HookNote {
  return typeof value === "object" && value !== null && KINDS.has((value as { kind?: unknown }).kind as string) && "note" in value;
}

/** The events a hook note adds. */
export function eventsOfHookNote(translator: StepTranslator, note: HookNote): AGUIEvent[] {
  switch (note.kind) {
    case "tool":
      return translator.toolHook(note.note) as AGUIEvent[];
    case "continuation":
      return translator.continuation(note.note) as AGUIEvent[];
    case "compaction":
      return translator.compactionSummary(note.note) as AGUIEvent[];
  }
}
