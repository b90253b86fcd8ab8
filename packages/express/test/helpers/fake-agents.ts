import { AbstractAgent } from "@ag-ui/client";
import { EventType, type AgentCapabilities, type BaseEvent, type RunAgentInput } from "@ag-ui/core";
import { Observable, type Subscriber, type TeardownLogic } from "rxjs";

/** What a fake agent saw, shared by every clone so a test can look after the run. */
export class AgentProbe {
  clones = 0;
  subscriptions = 0;
  teardowns = 0;
  readonly inputs: RunAgentInput[] = [];
  #teardownWaiters: (() => void)[] = [];

  recordTeardown(): void {
    this.teardowns += 1;
    for (const waiter of this.#teardownWaiters.splice(0)) waiter();
  }

  /** Resolves at the next teardown (or at once if `count` teardowns already happened). */
  waitForTeardowns(count = 1): Promise<void> {
    if (this.teardowns >= count) return Promise.resolve();
    return new Promise((resolve) => {
      const check = (): void => {
        if (this.teardowns >= count) resolve();
        else this.#teardownWaiters.push(check);
      };
      this.#teardownWaiters.push(check);
    });
  }
}

export type Script = (input: RunAgentInput, subscriber: Subscriber<BaseEvent>) => TeardownLogic;

/**
 * An AG-UI agent whose run is a script. `clone()` is overridden because AbstractAgent's copies only
 * the fields it knows, and the script and probe must follow each clone.
 */
export class ScriptedAgent extends AbstractAgent {
  readonly script: Script;
  readonly probe: AgentProbe;
  readonly capabilities: (() => Promise<AgentCapabilities>) | undefined;

  constructor(script: Script, options: { probe?: AgentProbe; capabilities?: () => Promise<AgentCapabilities> } = {}) {
    super();
    this.script = script;
    this.probe = options.probe ?? new AgentProbe();
    this.capabilities = options.capabilities;
    if (options.capabilities !== undefined) this.getCapabilities = options.capabilities;
  }

  override run(input: RunAgentInput): Observable<BaseEvent> {
    return new Observable<BaseEvent>((subscriber) => {
      this.probe.subscriptions += 1;
      this.probe.inputs.push(input);
      const teardown = this.script(input, subscriber);
      return () => {
        this.probe.recordTeardown();
        if (typeof teardown === "function") teardown();
        else teardown?.unsubscribe();
      };
    });
  }

  override clone(): ScriptedAgent {
    this.probe.clones += 1;
    return new ScriptedAgent(this.script, {
      probe: this.probe,
      ...(this.capabilities === undefined ? {} : { capabilities: this.capabilities }),
    });
  }
}

export function runStarted(input: RunAgentInput): BaseEvent {
  return { type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId } as BaseEvent;
}

export function runFinished(input: RunAgentInput): BaseEvent {
  return { type: EventType.RUN_FINISHED, threadId: input.threadId, runId: input.runId } as BaseEvent;
}

export function textMessage(messageId: string, text: string): BaseEvent[] {
  return [
    { type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" } as BaseEvent,
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta: text } as BaseEvent,
    { type: EventType.TEXT_MESSAGE_END, messageId } as BaseEvent,
  ];
}

/** Answers every run with one assistant message echoing the last user text. Synchronous. */
export function echoScript(input: RunAgentInput, subscriber: Subscriber<BaseEvent>): TeardownLogic {
  const lastUser = [...input.messages].reverse().find((message) => message.role === "user");
  const text = typeof lastUser?.content === "string" ? lastUser.content : "";
  subscriber.next(runStarted(input));
  for (const event of textMessage(`reply-${input.runId}`, `echo: ${text}`)) subscriber.next(event);
  subscriber.next(runFinished(input));
  subscriber.complete();
  return undefined;
}

/** Same as `echoScript`, but each event is a macrotask apart, so runs interleave. */
export function slowEchoScript(input: RunAgentInput, subscriber: Subscriber<BaseEvent>): TeardownLogic {
  const lastUser = [...input.messages].reverse().find((message) => message.role === "user");
  const text = typeof lastUser?.content === "string" ? lastUser.content : "";
  const events = [runStarted(input), ...textMessage(`reply-${input.runId}`, `echo: ${text}`), runFinished(input)];
  let timer: NodeJS.Timeout | undefined;
  const emitNext = (): void => {
    const event = events.shift();
    if (event === undefined) {
      subscriber.complete();
      return;
    }
    subscriber.next(event);
    timer = setTimeout(emitNext, 5);
  };
  timer = setTimeout(emitNext, 5);
  return () => clearTimeout(timer);
}

/** Starts the run and then never emits again until unsubscribed. */
export function hangingScript(input: RunAgentInput, subscriber: Subscriber<BaseEvent>): TeardownLogic {
  subscriber.next(runStarted(input));
  return undefined;
}
