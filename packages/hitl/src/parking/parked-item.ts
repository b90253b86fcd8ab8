import type { Interrupt } from "@ag-ui/core";
import type { AbandonCause, InterruptAnswer } from "../interrupts/interrupt-answer.js";

/** Something that waits on a human and is answered through `RunAgentInput.resume` or `forwardedProps.command`. */
export interface ParkedInterrupt {
  kind: "question" | "approval" | "server-interrupt";
  id: string;
  interrupt: Interrupt;
  expiresAtMs: number;
  /** Turns a loose answer shape into the canonical payload before validation, where loose shapes are accepted. */
  coerce?: (raw: unknown) => unknown;
  settle: (answer: InterruptAnswer) => void;
  fail: (error: unknown) => void;
}

/** What a frontend tool's call returns to the model. */
export type FrontendToolOutcome =
  | { type: "result"; content: string }
  | { type: "error"; message: string }
  | { type: "abandoned"; cause: AbandonCause };

/** A frontend tool call waiting for the client; only a ToolMessage with its `toolCallId` resolves it. */
export interface ParkedFrontendTool {
  kind: "frontend-tool";
  /** The AG-UI `toolCallId` the client answers with. */
  id: string;
  toolName: string;
  arguments: Record<string, unknown>;
  expiresAtMs: number;
  settle: (outcome: FrontendToolOutcome) => void;
  fail: (error: unknown) => void;
}

export type ParkedItem = ParkedInterrupt | ParkedFrontendTool;

/** What is remembered about a settled id, so a replayed answer is harmless and a late one is told why. */
export type SettledRecord = "answered" | "expired" | "abandoned";
