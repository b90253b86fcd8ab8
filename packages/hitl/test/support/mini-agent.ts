import { AbstractAgent, verifyEvents } from "@ag-ui/client";
import { EventType, type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import { from, lastValueFrom, Observable, toArray } from "rxjs";
import { HitlError, type HitlBridge, type RunConclusion, type RunItem, type RunStart, type TurnStarter } from "../../src/index.js";

export interface DrivenRun {
  events: BaseEvent[];
  items: RunItem[];
  conclusion?: RunConclusion;
  start?: RunStart;
  error?: HitlError;
}

/**
 * The integration contract as a tiny run loop: what the agent package does with the bridge, minus
 * the real translator (a text step becomes one whole text message here).
 */
export async function driveRun<TInput>(
  bridge: HitlBridge,
  input: RunAgentInput,
  options: { newInput?: TInput; startTurn: TurnStarter<TInput>; signal?: AbortSignal; onItem?: (item: RunItem) => void },
): Promise<DrivenRun> {
  const events: BaseEvent[] = [{ type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId } as BaseEvent];
  const items: RunItem[] = [];
  let run;
  try {
    run = bridge.beginRun(input, options.newInput === undefined ? { startTurn: options.startTurn } : { newInput: options.newInput, startTurn: options.startTurn });
  } catch (error) {
    if (!HitlError.isInstance(error)) throw error;
    events.push({ type: EventType.RUN_ERROR, message: error.message, code: error.code } as BaseEvent);
    return { events, items, error };
  }
  const signal = options.signal;
  const openMessages = new Map<string, string>();
  try {
    for await (const item of run.items(signal === undefined ? {} : { signal })) {
      items.push(item);
      options.onItem?.(item);
      events.push(...eventsFor(item, openMessages));
    }
  } catch (error) {
    run.finish();
    throw error;
  }
  for (const messageId of openMessages.values()) events.push({ type: EventType.TEXT_MESSAGE_END, messageId } as BaseEvent);
  const conclusion = run.finish();
  if (conclusion.type === "interrupt") {
    if (conclusion.stateSnapshot !== undefined) events.push({ type: EventType.STATE_SNAPSHOT, snapshot: conclusion.stateSnapshot } as BaseEvent);
    events.push({ type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId, outcome: { type: "interrupt", interrupts: conclusion.interrupts } } as BaseEvent);
  } else {
    events.push({ type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId } as BaseEvent);
  }
  return { events, items, conclusion, start: run.start };
}

let messageCounter = 0;

/** Model text steps become one message per step (opened on its first text, closed at DONE). */
function eventsFor(item: RunItem, openMessages: Map<string, string>): BaseEvent[] {
  switch (item.type) {
    case "step": {
      const step = item.step;
      if (step.kind !== "text" || step.source !== "model") return [];
      const events: BaseEvent[] = [];
      let messageId = openMessages.get(step.id);
      if (step.textDelta !== "") {
        if (messageId === undefined) {
          messageId = `message-${++messageCounter}`;
          openMessages.set(step.id, messageId);
          events.push({ type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" } as BaseEvent);
        }
        events.push({ type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: step.textDelta } as BaseEvent);
      }
      if (step.status === "done" && messageId !== undefined) {
        events.push({ type: EventType.TEXT_MESSAGE_END, messageId } as BaseEvent);
        openMessages.delete(step.id);
      }
      return events;
    }
    case "tool-call":
      return [
        { type: EventType.TOOL_CALL_START, toolCallId: item.toolCallId, toolCallName: item.toolName } as BaseEvent,
        { type: EventType.TOOL_CALL_ARGS, toolCallId: item.toolCallId, delta: JSON.stringify(item.arguments) } as BaseEvent,
        { type: EventType.TOOL_CALL_END, toolCallId: item.toolCallId } as BaseEvent,
      ];
    case "tool-result":
      return [{ type: EventType.TOOL_CALL_RESULT, messageId: `result-${item.toolCallId}`, toolCallId: item.toolCallId, content: item.content, role: "tool" } as BaseEvent];
    // The agent hands state to its translator, which sends deltas against the last state sent; a
    // snapshot of every write is the same state for the client.
    case "state":
      return [{ type: EventType.STATE_SNAPSHOT, snapshot: item.state } as BaseEvent];
    // This loop shows no card for an approval's call, so a denial has nothing to close; the host's
    // own notes (relayed) are the host's to show.
    case "tool-denied":
    case "interrupt":
    case "turn-ended":
    case "relayed":
      return [];
  }
}

/** Runs `events` through @ag-ui/client's verifier; rejects on the first ordering violation. */
export async function verify(events: BaseEvent[]): Promise<BaseEvent[]> {
  return lastValueFrom(from(events).pipe(verifyEvents(), toArray()));
}

export function runInput(overrides: Partial<RunAgentInput> = {}): RunAgentInput {
  return { threadId: "thread-1", runId: `run-${++messageCounter}`, messages: [], tools: [], context: [], state: {}, forwardedProps: {}, ...overrides };
}

/**
 * An AbstractAgent over the bridge, so multi-run conversations can be applied with the client's own
 * reducer (`runAgent`, `pendingInterrupts`, resume checks).
 */
export class MiniAgent extends AbstractAgent {
  readonly runs: DrivenRun[] = [];
  readonly #bridge: HitlBridge;
  readonly #startTurn: TurnStarter<string>;
  readonly #seenUserMessages = new Set<string>();

  constructor(bridge: HitlBridge, startTurn: TurnStarter<string>) {
    super({ threadId: "thread-1" });
    this.#bridge = bridge;
    this.#startTurn = startTurn;
  }

  run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable<BaseEvent>((subscriber) => {
      const fresh = input.messages.filter((message) => message.role === "user" && !this.#seenUserMessages.has(message.id));
      for (const message of fresh) this.#seenUserMessages.add(message.id);
      const text = fresh.map((message) => (typeof message.content === "string" ? message.content : "")).join("\n");
      driveRun(this.#bridge, input, text === "" ? { startTurn: this.#startTurn } : { newInput: text, startTurn: this.#startTurn })
        .then((driven) => {
          this.runs.push(driven);
          for (const event of driven.events) subscriber.next(event);
          subscriber.complete();
        })
        .catch((error: unknown) => subscriber.error(error));
    });
  }
}
