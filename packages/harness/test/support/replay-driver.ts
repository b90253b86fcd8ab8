import { readFileSync } from "node:fs";
import { parseRecording, type RecordingFrame } from "../../src/protocol.js";
import type { ConversationConfig, CustomTool, HarnessProcess, QuestionAnswer, Turn, UserInputPart } from "../../src/index.js";

/**
 * Drives the client through a recorded session against an emulator replaying the same recording:
 * each recorded connection is opened with the recorded client configuration, its turns are sent
 * with the recorded inputs, and tools, questions and confirmations are answered as recorded. Any
 * difference in what the client sends makes the emulator close the connection, and the turn or the
 * open rejects with the emulator's message (frame, field, expected, got). Closes the harness at
 * the end, to read the emulator's verdict on frames the client never sent.
 */
/**
 * The harness release a recording was made with: its header's `protocol`, or 0.1.10 for a recording
 * from before the client spoke several (format 1 without the field).
 */
export function recordingProtocol(recordingPath: string): string {
  const protocol = parseRecording(readFileSync(recordingPath, "utf8")).header.harness.protocol;
  return typeof protocol === "string" ? protocol : "0.1.10";
}

export async function driveRecording(harness: HarnessProcess, recordingPath: string): Promise<void> {
  const recording = parseRecording(readFileSync(recordingPath, "utf8"));
  const connections = [...new Set(recording.frames.flatMap((frame) => (frame.connection === undefined ? [] : [frame.connection])))].sort((a, b) => a - b);
  for (const connection of connections) {
    const summary = recording.conversations.find((entry) => entry.connection === connection)?.config ?? {};
    const frames = recording.frames.filter((frame) => frame.connection === connection);
    const conversation = await harness.openConversation(configFromSummary(summary, frames));
    try {
      for (const step of inputsOf(frames)) {
        const turn = conversation.send(step.input);
        if (step.halted) conversation.cancel();
        await drain(turn);
        await turn.result.catch((error: unknown) => {
          if (!step.failed) throw error;
        });
      }
    } finally {
      await conversation.close();
    }
  }
  // A client that sends less than was recorded is only visible to the emulator, which says so on stderr.
  await harness.close();
  const complaint = harness.stderrTail().find((line) => line.includes("replay of") && line.includes("diverged"));
  if (complaint !== undefined) throw new Error(complaint);
}

interface RecordedTurn {
  input: string | UserInputPart[];
  /** The client halted this turn. */
  halted: boolean;
  /** The harness ended it with an error (a failing result is what was recorded). */
  failed: boolean;
}

function inputsOf(frames: readonly RecordingFrame[]): RecordedTurn[] {
  const turns: RecordedTurn[] = [];
  for (const frame of frames) {
    const message = frame.message as Record<string, unknown>;
    if (frame.direction === "send" && typeof message["userInput"] === "string") {
      turns.push({ input: message["userInput"], halted: false, failed: false });
    } else if (frame.direction === "send" && typeof message["userInput"] === "object" && message["userInput"] !== null) {
      // 0.1.11 onwards: every turn input is userInput{parts}.
      turns.push({ input: partsOf(message["userInput"]), halted: false, failed: false });
    } else if (frame.direction === "send" && message["complexUserInput"] !== undefined) {
      turns.push({ input: partsOf(message["complexUserInput"]), halted: false, failed: false });
    } else if (frame.direction === "send" && message["haltRequest"] !== undefined) {
      const last = turns.at(-1);
      if (last !== undefined) last.halted = true;
    } else if (frame.direction === "receive") {
      const update = message["trajectoryStateUpdate"] as { error?: unknown } | undefined;
      const last = turns.at(-1);
      if (last !== undefined && typeof update?.error === "string" && update.error !== "") last.failed = true;
    }
  }
  return turns;
}

function partsOf(value: unknown): UserInputPart[] {
  const parts = ((value as { parts?: unknown[] }).parts ?? []) as Record<string, unknown>[];
  return parts.map((part): UserInputPart => {
    if (typeof part["text"] === "string") return { text: part["text"] };
    const slash = part["slashCommand"] as { name?: string } | undefined;
    if (slash?.name !== undefined) return { slashCommand: slash.name };
    const media = part["media"] as { mimeType: string; data: string; description?: string };
    return { media: { mimeType: media.mimeType, data: media.data, ...(media.description === undefined ? {} : { description: media.description }) } };
  });
}

/** Rebuilds a ConversationConfig from a recording's summary; handlers answer from the recorded replies. */
function configFromSummary(summary: Record<string, unknown>, frames: readonly RecordingFrame[]): ConversationConfig {
  const { customTools, hooks, ...rest } = summary;
  const sent = frames.filter((frame) => frame.direction === "send").map((frame) => frame.message as Record<string, unknown>);
  const toolReplies = new Map<string, { responseJson?: string; errorMessage?: string }>();
  const questionReplies = new Map<string, Record<string, unknown>>();
  const confirmations = new Map<string, boolean>();
  for (const message of sent) {
    const tool = message["toolResponse"] as { id?: string; responseJson?: string; errorMessage?: string } | undefined;
    if (tool?.id !== undefined) toolReplies.set(tool.id, tool);
    const question = message["questionResponse"] as { trajectoryId?: string; stepIndex?: number } | undefined;
    if (question !== undefined) questionReplies.set(`${question.trajectoryId ?? ""}:${question.stepIndex ?? 0}`, question);
    const confirmation = message["toolConfirmation"] as { trajectoryId?: string; stepIndex?: number; accepted?: boolean } | undefined;
    if (confirmation !== undefined) confirmations.set(`${confirmation.trajectoryId ?? ""}:${confirmation.stepIndex ?? 0}`, confirmation.accepted === true);
  }
  const tools = ((customTools ?? []) as Omit<CustomTool, "handler">[]).map(
    (tool): CustomTool => ({
      ...tool,
      handler: (_args, context) => {
        const reply = toolReplies.get(context.callId);
        if (reply === undefined) throw new Error(`the recording has no reply to tool call ${context.callId}`);
        if (reply.errorMessage !== undefined) throw new Error(reply.errorMessage);
        return JSON.parse(reply.responseJson ?? "null") as unknown;
      },
    }),
  );
  const hookNames = new Set((hooks ?? []) as string[]);
  const unsupported = [...hookNames].filter((name) => name !== "onQuestions" && name !== "onConfirmation");
  if (unsupported.length > 0) throw new Error(`replaying recordings with hooks ${unsupported.join(", ")} is not supported yet`);
  // The key came from the recording machine's environment, so the summary may not hold it; the
  // recorded config shows whether one was sent (blanked), and any key matches a blanked one.
  const recordedConfig = sent.find((message) => message["config"] !== undefined)?.["config"] as { models?: { geminiApiEndpoint?: { apiKey?: string } }[] } | undefined;
  const sentKey = recordedConfig?.models?.some((model) => model.geminiApiEndpoint?.apiKey !== undefined) === true;
  return {
    ...(rest as ConversationConfig),
    ...(sentKey && rest["apiKey"] === undefined ? { apiKey: "replayed-key" } : {}),
    customTools: tools,
    hooks: {
      ...(hookNames.has("onQuestions")
        ? {
            onQuestions: ({ trajectoryId, stepIndex }) => {
              const reply = questionReplies.get(`${trajectoryId}:${stepIndex}`);
              if (reply === undefined || reply["cancelled"] === true) return { cancelled: true as const };
              const answers = ((reply["response"] as { answers?: Record<string, unknown>[] } | undefined)?.answers ?? []).map((answer): QuestionAnswer => {
                const choice = answer["multipleChoiceAnswer"] as { selectedChoiceIndices?: number[]; freeformResponse?: string } | undefined;
                if (choice === undefined) return "unanswered";
                return { selected: choice.selectedChoiceIndices ?? [], ...(choice.freeformResponse === undefined ? {} : { freeform: choice.freeformResponse }) };
              });
              return { answers };
            },
          }
        : {}),
      ...(hookNames.has("onConfirmation")
        ? { onConfirmation: ({ step }) => confirmations.get(`${step.trajectoryId}:${step.stepIndex}`) ?? false }
        : {}),
    },
  };
}

async function drain(turn: Turn): Promise<void> {
  try {
    for await (const _step of turn) void _step;
  } catch {
    // The result says how the turn ended.
  }
}
