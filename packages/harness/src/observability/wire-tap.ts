import type { Logger } from "@ag-ui-antigravity/foundation";
import type { Redactor } from "./redactor.js";
import type { WireInspector, WireRecord } from "./wire-record.js";
import type { WireRecorder } from "./wire-recorder.js";
import { parseWireSelection, wireSelectionIncludes, type WireSelection } from "./wire-selection.js";
import { summarizeWireRecord } from "./wire-summary.js";

export interface WireTapOptions {
  logger: Logger;
  redactor: Redactor;
  inspector?: WireInspector | undefined;
  /** The ANTIGRAVITY_WIRE value; undefined turns printing off. */
  selection?: string | undefined;
  /** Where selected messages are printed when no logger was given. */
  write?: ((line: string) => void) | undefined;
  /** True when the caller supplied a logger; then traces go to `logger.debug`. */
  loggerConfigured: boolean;
  /** ANTIGRAVITY_WIRE_RECORD's file: gets every frame, whatever the selection. */
  recorder?: WireRecorder | undefined;
  /** The WebSocket connection this tap observes (recordings number them from 1). */
  connection?: number | undefined;
}

/**
 * Observes every message: forwards it (redacted) to the inspector hook and prints the ones
 * ANTIGRAVITY_WIRE selects. Nothing is computed when neither is on.
 */
export class WireTap {
  readonly #options: WireTapOptions;
  readonly #selection: WireSelection | undefined;

  constructor(options: WireTapOptions) {
    this.#options = options;
    this.#selection = parseWireSelection(options.selection);
  }

  get redactor(): Redactor {
    return this.#options.redactor;
  }

  /** A tap with the same sinks but another redactor (a conversation adds its API key). */
  withRedactor(redactor: Redactor): WireTap {
    return new WireTap({ ...this.#options, redactor });
  }

  /**
   * The tap of one WebSocket conversation: its own redactor (it adds the conversation's API key)
   * and, when recording, its own connection number, announced with the client's config summary.
   */
  forConversation(redactor: Redactor, configSummary: () => Record<string, unknown>): WireTap {
    const recorder = this.#options.recorder;
    if (recorder === undefined) return this.withRedactor(redactor);
    const connection = recorder.nextConnection();
    const redacted = redactor.redactValue(configSummary());
    recorder.conversation(connection, redacted !== null && typeof redacted === "object" ? (redacted as Record<string, unknown>) : {});
    return new WireTap({ ...this.#options, redactor, connection });
  }

  get active(): boolean {
    return this.#options.inspector !== undefined || this.#selection !== undefined || this.#options.recorder !== undefined;
  }

  /** Records a received frame that did not parse, as its text: a replay must reproduce it too. */
  recordUnparsable(text: string, conversationId: string | undefined): void {
    this.#options.recorder?.frame({
      channel: "ws",
      direction: "receive",
      messageKey: "(unparsable)",
      message: this.#options.redactor.redactText(text),
      ...(this.#options.connection === undefined ? {} : { connection: this.#options.connection }),
      ...(conversationId ? { conversationId } : {}),
    });
  }

  record(entry: Omit<WireRecord, "timestamp" | "message"> & { message: unknown }): void {
    if (!this.active) return;
    const selected = this.#selection !== undefined && wireSelectionIncludes(this.#selection, entry.channel, entry.messageKey);
    const recorder = this.#options.recorder;
    if (this.#options.inspector === undefined && !selected && recorder === undefined) return;
    const record: WireRecord = { ...entry, message: this.#options.redactor.redactValue(entry.message), timestamp: Date.now() };
    recorder?.frame({
      channel: record.channel,
      direction: record.direction,
      messageKey: record.messageKey,
      message: record.message,
      ...(this.#options.connection === undefined ? {} : { connection: this.#options.connection }),
      ...(record.conversationId ? { conversationId: record.conversationId } : {}),
    });
    if (this.#options.inspector !== undefined) {
      try {
        this.#options.inspector(record);
      } catch (error) {
        this.#options.logger.warn({ error: String(error) }, "wire inspector threw; ignoring");
      }
    }
    if (selected && this.#selection !== undefined) {
      const line = this.#selection.summary
        ? summarizeWireRecord(record)
        : `antigravity ${record.channel}${record.conversationId ? ` [${record.conversationId}]` : ""} ${record.direction === "send" ? "→" : "←"} ${JSON.stringify(record.message)}`;
      if (this.#options.loggerConfigured) this.#options.logger.debug({ wire: true }, line);
      else (this.#options.write ?? ((text: string) => process.stderr.write(`${text}\n`)))(line);
    }
  }
}
