// A StepTranslator that records everything it emits as the run loop would stream it, so a test
// suite can replay every sequence it produced through the real client, not only the ones a test
// thought to check.
import { type AGUIEvent, type BaseEvent, EventType } from "@ag-ui/core";
import { StepTranslator } from "../../src/index.js";

export class RecordingTranslator extends StepTranslator {
  readonly #stream: BaseEvent[] = [];
  #runs = 0;
  #inRun = false;

  /** The whole stream: every run bracketed, the last one closed as the run loop would close it. */
  recordedStream(): BaseEvent[] {
    if (!this.#inRun) return [...this.#stream];
    return [...this.#stream, ...super.closeRun(), { type: EventType.RUN_FINISHED, threadId: "thread-1", runId: `run-${this.#runs}` }];
  }

  #record(events: AGUIEvent[]): AGUIEvent[] {
    if (events.length > 0 && !this.#inRun) this.#begin();
    this.#stream.push(...events);
    return events;
  }

  #begin(): void {
    this.#runs += 1;
    this.#inRun = true;
    this.#stream.push({ type: EventType.RUN_STARTED, threadId: "thread-1", runId: `run-${this.#runs}` });
  }

  override translate(...parameters: Parameters<StepTranslator["translate"]>): AGUIEvent[] {
    return this.#record(super.translate(...parameters));
  }

  override toolCall(...parameters: Parameters<StepTranslator["toolCall"]>): AGUIEvent[] {
    return this.#record(super.toolCall(...parameters));
  }

  override toolCallResult(...parameters: Parameters<StepTranslator["toolCallResult"]>): AGUIEvent[] {
    return this.#record(super.toolCallResult(...parameters));
  }

  override finishSubagent(...parameters: Parameters<StepTranslator["finishSubagent"]>): AGUIEvent[] {
    return this.#record(super.finishSubagent(...parameters));
  }

  override toolHook(...parameters: Parameters<StepTranslator["toolHook"]>): AGUIEvent[] {
    return this.#record(super.toolHook(...parameters));
  }

  override continuation(...parameters: Parameters<StepTranslator["continuation"]>): AGUIEvent[] {
    return this.#record(super.continuation(...parameters));
  }

  override compactionSummary(...parameters: Parameters<StepTranslator["compactionSummary"]>): AGUIEvent[] {
    return this.#record(super.compactionSummary(...parameters));
  }

  override updateState(...parameters: Parameters<StepTranslator["updateState"]>): AGUIEvent[] {
    return this.#record(super.updateState(...parameters));
  }

  override closeRun(): AGUIEvent[] {
    const events = this.#record(super.closeRun());
    if (this.#inRun) {
      this.#stream.push({ type: EventType.RUN_FINISHED, threadId: "thread-1", runId: `run-${this.#runs}` });
      this.#inRun = false;
    }
    return events;
  }

  /** A run abandoned without closeRun() (a client disconnect) ends with RUN_ERROR on the wire. */
  override startRun(): void {
    super.startRun();
    if (this.#inRun) {
      this.#stream.push({ type: EventType.RUN_ERROR, message: "disconnected" });
      this.#inRun = false;
    }
  }
}
