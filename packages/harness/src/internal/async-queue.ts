/**
 * A single-consumer async queue with a bound. When the consumer falls behind by more than
 * `maxItems`, the oldest items are dropped and counted, so an unread stream cannot grow without
 * limit; `end()` and `fail()` finish it after the buffered items are consumed.
 */
export class AsyncQueue<Item> implements AsyncIterable<Item> {
  readonly #maxItems: number;
  readonly #items: Item[] = [];
  #waiting: { resolve: (result: IteratorResult<Item>) => void; reject: (error: unknown) => void } | undefined;
  #ended = false;
  #error: { value: unknown } | undefined;
  #dropped = 0;
  #iterated = false;
  readonly #onDrop: ((dropped: number) => void) | undefined;

  constructor(options: { maxItems: number; onDrop?: (dropped: number) => void }) {
    this.#maxItems = options.maxItems;
    this.#onDrop = options.onDrop;
  }

  get dropped(): number {
    return this.#dropped;
  }

  get finished(): boolean {
    return this.#ended || this.#error !== undefined;
  }

  push(item: Item): void {
    if (this.finished) return;
    const waiting = this.#waiting;
    if (waiting !== undefined) {
      this.#waiting = undefined;
      waiting.resolve({ value: item, done: false });
      return;
    }
    this.#items.push(item);
    if (this.#items.length > this.#maxItems) {
      this.#items.shift();
      this.#dropped += 1;
      this.#onDrop?.(this.#dropped);
    }
  }

  end(): void {
    if (this.finished) return;
    this.#ended = true;
    this.#flushWaiting();
  }

  fail(error: unknown): void {
    if (this.finished) return;
    this.#error = { value: error };
    this.#flushWaiting();
  }

  #flushWaiting(): void {
    const waiting = this.#waiting;
    if (waiting === undefined) return;
    this.#waiting = undefined;
    if (this.#error !== undefined) waiting.reject(this.#error.value);
    else waiting.resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<Item> {
    if (this.#iterated) throw new TypeError("this stream can be iterated only once");
    this.#iterated = true;
    return {
      next: () => {
        const item = this.#items.shift();
        if (item !== undefined) return Promise.resolve({ value: item, done: false });
        if (this.#error !== undefined) {
          const error = this.#error.value;
          return Promise.reject(error instanceof Error || typeof error === "object" ? error : new Error(String(error)));
        }
        if (this.#ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise<IteratorResult<Item>>((resolve, reject) => {
          this.#waiting = { resolve, reject };
        });
      },
      return: () => {
        // The consumer stopped reading; drop what is buffered and stop buffering.
        this.#items.length = 0;
        this.#ended = true;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
