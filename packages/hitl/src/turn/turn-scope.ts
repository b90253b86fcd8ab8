import type { NormalizedStep } from "@ag-ui-antigravity/harness";
import { TurnDeduplicator } from "../tools/turn-deduplicator.js";

/**
 * One harness turn, which may span several AG-UI runs. It owns the step iterator, the read that is
 * in flight when a run ends on a park (kept, never cancelled, and handed to the next run), the
 * turn's dedup memory, and the callbacks that retire other turn-scoped memory (the translator's)
 * when the turn ends.
 */
export class TurnScope {
  readonly deduplicator = new TurnDeduplicator();
  #iterator: AsyncIterator<NormalizedStep> | undefined;
  readonly #controller: AbortController;
  readonly #onRetire: (() => void)[] = [];
  #read: Promise<IteratorResult<NormalizedStep>> | undefined;
  #retired = false;

  constructor(controller: AbortController) {
    this.#controller = controller;
  }

  /**
   * Hands the scope the turn's steps. Separate from construction because the harness may call a
   * tool before `send` returns, and that call must already find its turn (for deduplication).
   */
  attach(steps: AsyncIterable<NormalizedStep>): void {
    this.#iterator = steps[Symbol.asyncIterator]();
  }

  /** Aborted when the turn is halted; the signal the turn was started with. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get retired(): boolean {
    return this.#retired;
  }

  /** The next step. Until `consume()` is called, every call returns the same read. */
  read(): Promise<IteratorResult<NormalizedStep>> {
    if (this.#iterator === undefined) throw new Error("TurnScope.read() before attach()");
    this.#read ??= this.#iterator.next();
    return this.#read;
  }

  /** Marks the current read as delivered, so the next `read()` pulls a new step. */
  consume(): void {
    this.#read = undefined;
  }

  /** Registers memory to drop when the turn ends (the translator's per-turn state, for example). */
  onRetire(callback: () => void): void {
    if (this.#retired) callback();
    else this.#onRetire.push(callback);
  }

  /** Aborts the harness turn (the harness halts it) and reads it to its end in the background. */
  halt(): Promise<void> {
    this.#controller.abort(new DOMException("The run was cancelled while the turn was not waiting on a human.", "AbortError"));
    return this.#drain();
  }

  retire(): void {
    if (this.#retired) return;
    this.#retired = true;
    this.deduplicator.clear();
    for (const callback of this.#onRetire.splice(0)) callback();
  }

  async #drain(): Promise<void> {
    try {
      for (;;) {
        const result = await this.read();
        this.consume();
        if (result.done === true) break;
      }
    } catch {
      // A halted turn may end in an error (CANCELLED); there is nobody left to tell.
    } finally {
      this.retire();
    }
  }
}
