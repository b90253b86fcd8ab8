import type { Logger } from "@ag-ui-antigravity/foundation";
import type WebSocket from "ws";
import type { WireTap } from "../observability/wire-tap.js";
import type { DriftRegistry } from "../protocol/drift.js";
import type { OutputEvent } from "../protocol/messages.js";
import { outputEventKind, type OutputEventKind } from "../protocol/output-events.js";
import type { parseOutputEvent } from "../protocol/parse.js";
import { ProtocolError } from "../protocol/protocol-error.js";
import { CumulativeTextFrames, MIN_CUT_FRAME_BYTES } from "./cumulative-text-frames.js";

/** The frame parser, loaded with the first conversation (`loadOutputEventParser`). */
export type OutputEventParser = typeof parseOutputEvent;

let outputEventParser: Promise<OutputEventParser> | undefined;

/**
 * The parser of harness frames, loaded with the first conversation rather than with this module: it
 * brings the protocol's message schemas, zod objects for every message (0.6 MiB of heap once built,
 * measured after full collections) that a server with no conversation open yet never needs
 * (BENCHMARKS.md, section 6: idle RSS). Loaded while the socket connects.
 */
export function loadOutputEventParser(): Promise<OutputEventParser> {
  outputEventParser ??= import("../protocol/parse.js").then((module) => module.parseOutputEvent);
  return outputEventParser;
}

/**
 * Turns what arrives on a conversation's WebSocket into OutputEvents (docs/protocol.md, "Errors"): a
 * frame that does not parse is logged, counted as drift and passed over, never thrown; every event
 * is shown to the wire tap. One per conversation (it remembers the cumulative text it decoded).
 */
export class HarnessFrames {
  readonly #textFrames = new CumulativeTextFrames();
  readonly #parse: OutputEventParser;
  readonly #drift: DriftRegistry;
  readonly #logger: Logger;
  readonly #wireTap: WireTap;
  readonly #conversationId: () => string;

  constructor(options: { parse: OutputEventParser; drift: DriftRegistry; logger: Logger; wireTap: WireTap; conversationId: () => string }) {
    this.#parse = options.parse;
    this.#drift = options.drift;
    this.#logger = options.logger;
    this.#wireTap = options.wireTap;
    this.#conversationId = options.conversationId;
  }

  /** The event a frame carries and its kind, or undefined for a binary frame or one that does not parse. */
  read(data: WebSocket.RawData, isBinary: boolean): { event: OutputEvent; kind: OutputEventKind } | undefined {
    // Only text frames carry protocol messages.
    if (isBinary) return undefined;
    const id = this.#conversationId();
    // ws hands over a Buffer; a long text or thinking frame is decoded from it without building its
    // cumulative text twice (cumulative-text-frames.ts), anything else is decoded in place (not
    // `Buffer.from` it, which copies) and parsed in full.
    let event = Buffer.isBuffer(data) && data.length >= MIN_CUT_FRAME_BYTES ? this.#textFrames.decode(data) : undefined;
    if (event === undefined) {
      const text = Array.isArray(data) ? Buffer.concat(data).toString("utf8") : Buffer.isBuffer(data) ? data.toString("utf8") : Buffer.from(data).toString("utf8");
      try {
        event = this.#parse(text, { drift: this.#drift });
      } catch (error) {
        this.#logger.warn({ error: error instanceof Error ? error.message : String(error) }, "ignoring a message from the harness that does not parse");
        this.#drift.record({ kind: "invalid-message", path: "OutputEvent", reason: invalidMessageReason(error) });
        this.#wireTap.recordUnparsable(text, id || undefined);
        return undefined;
      }
    }
    const kind = outputEventKind(event);
    // Checked first so an inactive tap costs no record object per frame.
    if (this.#wireTap.active) this.#wireTap.record({ channel: "ws", direction: "receive", messageKey: kind, message: event, ...(id ? { conversationId: id } : {}) });
    return { event, kind };
  }
}

/** A short, stable reason for a dropped message, so drift counts group alike failures. */
function invalidMessageReason(error: unknown): string {
  if (!ProtocolError.isInstance(error)) return "unreadable";
  const issue = error.details.issues?.[0];
  if (issue === undefined) return error.code;
  if (issue.message === "invalid JSON") return "not JSON";
  const path = issue.path.join(".");
  return `${path === "" ? "(root)" : path}: ${issue.message}`.slice(0, 200);
}
