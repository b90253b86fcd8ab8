import type { WebSocket } from "ws";
import { firstDifference, type RecordingFrame } from "@ag-ui-antigravity/harness/protocol";
import { EmulatorError } from "../errors/emulator-error.js";
import type { EmulatorLogger } from "../logging/logger.js";
import { closeCodes, truncateCloseReason } from "../conversation/conversation.js";

export interface ReplayConversationOptions {
  socket: WebSocket;
  logger: EmulatorLogger;
  /** The recorded connection this socket plays, its number, and the recording's path (for messages). */
  connection: number;
  frames: readonly RecordingFrame[];
  source: string;
  /** Dotted paths (`*` for any key or index) whose values may differ from the recording. */
  ignore: readonly string[];
  /** Honour the recorded gaps between harness frames (capped), instead of sending them at once. */
  timing: boolean;
  /** Called once with the divergence, before the socket closes. */
  onDivergence?: (error: EmulatorError) => void;
}

/** Longest recorded pause honoured in timed replay: a stalled live session must not stall a test. */
const MAX_REPLAY_GAP_MS = 2_000;

/**
 * Plays one recorded connection to a live client: sends the harness's frames as recorded and,
 * whenever the recording shows the client speaking, waits for the client and checks that it says
 * the same thing. The first difference closes the socket (1011) and is logged in full: which frame,
 * which field, expected and got.
 */
export class ReplayConversation {
  readonly #options: ReplayConversationOptions;
  readonly closed: Promise<void>;
  /** Client frames already matched, by seq; replies recorded back to back may match out of order. */
  readonly #consumed = new Set<number>();
  #cursor = 0;
  #diverged = false;
  #closed = false;
  #timer: NodeJS.Timeout | undefined;
  #resolveClosed!: () => void;

  constructor(options: ReplayConversationOptions) {
    this.#options = options;
    this.closed = new Promise((resolve) => (this.#resolveClosed = resolve));
    options.socket.on("message", (data, isBinary) => {
      if (isBinary) return;
      this.#receive(Buffer.isBuffer(data) ? data.toString("utf8") : Buffer.concat(data as Buffer[]).toString("utf8"));
    });
    options.socket.on("close", () => this.#finish());
    options.socket.on("error", (error) => options.logger.warn(`WebSocket error: ${error.message}`));
    options.logger.info(`replaying connection ${options.connection} of ${options.source} (${options.frames.length} frames)`);
    this.#playHarnessFrames();
  }

  /** Count of frames sent so far. */
  get sentFrames(): number {
    return this.#options.frames.slice(0, this.#cursor).filter((frame) => frame.direction === "receive").length;
  }

  terminate(): void {
    this.#finish();
    this.#options.socket.terminate();
  }

  #receive(text: string): void {
    if (this.#diverged || this.#closed) return;
    let message: unknown;
    try {
      message = asTurnInput(JSON.parse(text));
    } catch {
      this.#diverge(this.#options.frames[this.#cursor], `the client sent a frame that is not JSON: ${text.slice(0, 80)}`);
      return;
    }
    const run = this.#pendingClientFrames();
    if (run.length === 0) {
      const key = topLevelKey(message);
      this.#diverge(undefined, `the client sent ${key} after the recording's last client frame of connection ${this.#options.connection}`);
      return;
    }
    // Replies the recording shows back to back (two tool results, say) may arrive in either order.
    const key = topLevelKey(message);
    const candidates = run.filter((frame) => frame.messageKey === key || topLevelKey(asTurnInput(frame.message)) === key);
    for (const frame of candidates) {
      if (firstDifference(asTurnInput(frame.message), message, this.#options.ignore) === undefined) {
        this.#consume(frame);
        return;
      }
    }
    const expected = candidates[0] ?? run[0];
    if (expected === undefined) return;
    const difference = candidates[0] === undefined ? undefined : firstDifference(asTurnInput(expected.message), message, this.#options.ignore);
    this.#diverge(
      expected,
      difference === undefined
        ? `expected ${expected.messageKey}, got ${key}`
        : `field ${difference.path}: expected ${difference.expected}, got ${difference.actual}`,
    );
  }

  /** The consecutive client frames at the cursor: what the client may send next. */
  #pendingClientFrames(): RecordingFrame[] {
    const run: RecordingFrame[] = [];
    for (let index = this.#cursor; index < this.#options.frames.length; index += 1) {
      const frame = this.#options.frames[index];
      if (frame === undefined || frame.direction !== "send") break;
      if (!this.#consumed.has(frame.seq)) run.push(frame);
    }
    return run;
  }

  #consume(frame: RecordingFrame): void {
    this.#consumed.add(frame.seq);
    while (this.#cursor < this.#options.frames.length) {
      const next = this.#options.frames[this.#cursor];
      if (next === undefined || next.direction !== "send" || !this.#consumed.has(next.seq)) break;
      this.#cursor += 1;
    }
    this.#playHarnessFrames();
  }

  /** Sends the harness frames at the cursor, up to the next frame the client must send. */
  #playHarnessFrames(): void {
    if (this.#timer !== undefined || this.#closed) return;
    const frame = this.#options.frames[this.#cursor];
    if (frame === undefined || frame.direction !== "receive") return;
    const previous = this.#options.frames[this.#cursor - 1];
    const gap = this.#options.timing && previous !== undefined ? Math.min(MAX_REPLAY_GAP_MS, Math.max(0, frame.atMs - previous.atMs)) : 0;
    const send = (): void => {
      this.#timer = undefined;
      if (this.#closed || this.#options.socket.readyState !== this.#options.socket.OPEN) return;
      this.#cursor += 1;
      this.#options.socket.send(typeof frame.message === "string" ? frame.message : JSON.stringify(frame.message));
      this.#playHarnessFrames();
    };
    if (gap === 0) {
      send();
      return;
    }
    this.#timer = setTimeout(send, gap);
    this.#timer.unref();
  }

  #diverge(frame: RecordingFrame | undefined, detail: string): void {
    this.#diverged = true;
    const where = frame === undefined ? `connection ${this.#options.connection}` : `frame ${frame.seq} (connection ${this.#options.connection}, client ${frame.messageKey})`;
    const error = new EmulatorError("REPLAY_DIVERGED", `replay of ${this.#options.source} diverged at ${where}: ${detail}`);
    this.#options.logger.error(error.message);
    this.#options.onDivergence?.(error);
    const reason = frame === undefined ? `replay diverged: ${detail}` : `replay diverged at frame ${frame.seq}: ${detail}`;
    this.#options.socket.close(closeCodes.internalError, truncateCloseReason(reason));
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    const missing = this.#options.frames.slice(this.#cursor).find((frame) => frame.direction === "send" && !this.#consumed.has(frame.seq));
    if (missing !== undefined && !this.#diverged) {
      this.#options.logger.error(
        `replay of ${this.#options.source} diverged at frame ${missing.seq} (connection ${this.#options.connection}, client ${missing.messageKey}): the connection closed before the client sent it`,
      );
    }
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#resolveClosed();
  }
}

/**
 * A turn's input as the harness takes it: one text part, whether sent as 0.1.10's `complexUserInput`
 * or 0.1.11's `userInput{parts}`, starts the same turn as a 0.1.10 `userInput` of that text
 * (docs/protocol.md, "Messages"), so a recording of one generation matches a client of the other.
 */
function asTurnInput(message: unknown): unknown {
  if (message === null || typeof message !== "object") return message;
  const { complexUserInput, userInput, ...envelope } = message as { complexUserInput?: unknown; userInput?: unknown };
  const partsMessage = complexUserInput ?? (typeof userInput === "object" ? userInput : undefined);
  if (complexUserInput !== undefined && userInput !== undefined) return message;
  const parts = (partsMessage as { parts?: unknown } | null | undefined)?.parts;
  if (!Array.isArray(parts) || parts.length !== 1 || Object.keys(partsMessage as object).length !== 1) return message;
  const part: unknown = parts[0];
  if (part === null || typeof part !== "object" || Object.keys(part).length !== 1) return message;
  const text = (part as { text?: unknown }).text;
  return typeof text === "string" && text !== "" ? { ...envelope, userInput: text } : message;
}

function topLevelKey(message: unknown): string {
  if (message === null || typeof message !== "object") return typeof message;
  return Object.keys(message).find((key) => key !== "seqNum" && key !== "timestampMicros") ?? "(empty)";
}
