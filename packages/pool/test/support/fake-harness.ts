import type { Logger } from "@ag-ui-antigravity/foundation";
import type { Partition } from "../../src/partition/partition.js";
import type { PooledProcess, StartProcess } from "../../src/process/pooled-process.js";

export interface FakeConfig {
  readonly name: string;
  /** Makes openConversation reject, as a harness refusing a bad config does. */
  readonly failOpen?: boolean;
}

export class FakeConversation {
  closed = false;
  constructor(
    readonly config: FakeConfig,
    readonly process: FakeProcess,
  ) {}

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.process.open.delete(this);
  }
}

/** A process double: counts what the pool does to it and can die on request. */
export class FakeProcess implements PooledProcess<FakeConfig, FakeConversation> {
  readonly pid: number;
  readonly open = new Set<FakeConversation>();
  readonly controller = new AbortController();
  mostOpenAtOnce = 0;
  /** Set by `exitQuietly`: the process is gone but its signal has not aborted yet. */
  hasExited = false;
  closeCalls = 0;
  healthy = true;
  healthChecks = 0;

  constructor(
    readonly partition: Partition,
    pid: number,
    private readonly openDelayMs: number,
  ) {
    this.pid = pid;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get alive(): boolean {
    return !this.controller.signal.aborted;
  }

  async openConversation(config: FakeConfig, options: { signal?: AbortSignal }): Promise<FakeConversation> {
    if (this.openDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.openDelayMs));
    options.signal?.throwIfAborted();
    if (!this.alive || this.hasExited) throw new Error("connection closed: the process is gone");
    if (config.failOpen === true) throw new Error(`init failed for ${config.name}`);
    const conversation = new FakeConversation(config, this);
    this.open.add(conversation);
    this.mostOpenAtOnce = Math.max(this.mostOpenAtOnce, this.open.size);
    return conversation;
  }

  async close(): Promise<void> {
    this.closeCalls += 1;
    for (const conversation of this.open) conversation.closed = true;
    this.open.clear();
    if (this.alive) this.controller.abort(new Error("closed"));
  }

  async checkHealth(options: { signal: AbortSignal }): Promise<void> {
    this.healthChecks += 1;
    if (this.healthy) return;
    // A wedged process never answers; only the pool's timeout ends the probe.
    await new Promise((_resolve, reject) => options.signal.addEventListener("abort", () => reject(options.signal.reason), { once: true }));
  }

  /** The process exits on its own, as a crash does. */
  die(): void {
    for (const conversation of this.open) conversation.closed = true;
    this.open.clear();
    this.controller.abort(new Error("exited with code 1"));
  }

  /** The OS process exits, but the client has not aborted the signal yet (it waits for stderr). */
  exitQuietly(): void {
    this.hasExited = true;
  }

  stderrTail(): readonly string[] {
    return [`fake ${this.pid} stderr`];
  }
}

export interface FakeHarnessOptions {
  startDelayMs?: number;
  openDelayMs?: number;
  /** Decides, per start, whether it fails. */
  failStart?: (attempt: number) => boolean;
}

/** A `startProcess` over fakes, with the books a test asserts on. */
export class FakeHarness {
  readonly processes: FakeProcess[] = [];
  startsInFlight = 0;
  mostStartsAtOnce = 0;
  startAttempts = 0;
  abortedStarts = 0;
  #nextPid = 1000;

  constructor(private readonly options: FakeHarnessOptions = {}) {}

  readonly startProcess: StartProcess<FakeConfig, FakeConversation> = async (partition, { signal }) => {
    this.startAttempts += 1;
    const attempt = this.startAttempts;
    this.startsInFlight += 1;
    this.mostStartsAtOnce = Math.max(this.mostStartsAtOnce, this.startsInFlight);
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, this.options.startDelayMs ?? 5);
        signal.addEventListener(
          "abort",
          () => {
            clearTimeout(timer);
            this.abortedStarts += 1;
            reject(signal.reason);
          },
          { once: true },
        );
      });
      if (this.options.failStart?.(attempt) === true) throw new Error(`spawn ${attempt} failed`);
      const process = new FakeProcess(partition, this.#nextPid, this.options.openDelayMs ?? 0);
      this.#nextPid += 1;
      this.processes.push(process);
      return process;
    } finally {
      this.startsInFlight -= 1;
    }
  };

  get alive(): FakeProcess[] {
    return this.processes.filter((process) => process.alive);
  }
}

/** A logger that remembers every line, for asserting that something was reported. */
export function recordingLogger(): Logger & { lines: { level: string; message: string; fields?: Record<string, unknown> }[] } {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const record = (level: string) => (fields: Record<string, unknown>, message = "") => {
    lines.push({ level, message, fields });
  };
  return { lines, debug: record("debug"), info: record("info"), warn: record("warn"), error: record("error") };
}

/** Polls `condition` until it holds, or fails after `timeoutMs`. */
export async function waitFor(condition: () => boolean, options: { timeoutMs?: number; what?: string } = {}): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 5_000);
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what ?? "a condition"}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
