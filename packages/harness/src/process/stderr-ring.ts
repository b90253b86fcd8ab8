const DEFAULT_MAX_LINES = 40;
/** A single line longer than this is cut: a binary blob on stderr must not blow the bound. */
const MAX_LINE_CHARACTERS = 4096;

/**
 * Keeps the last lines the harness wrote to stderr. The harness explains its failures only there,
 * and a pipe nobody reads blocks it, so stderr is drained from spawn to exit into this bounded ring.
 */
export class StderrRing {
  readonly #maxLines: number;
  readonly #lines: string[] = [];
  #partial = "";
  readonly #decoder = new TextDecoder();

  constructor(maxLines = DEFAULT_MAX_LINES) {
    this.#maxLines = Math.max(1, maxLines);
  }

  /** Adds a chunk; returns the complete lines it finished (for logging). */
  push(chunk: Uint8Array | string): string[] {
    const text = typeof chunk === "string" ? chunk : this.#decoder.decode(chunk, { stream: true });
    const pieces = (this.#partial + text).split(/\r?\n/);
    this.#partial = (pieces.pop() ?? "").slice(-MAX_LINE_CHARACTERS);
    const finished = pieces.map((line) => line.slice(0, MAX_LINE_CHARACTERS));
    for (const line of finished) this.#append(line);
    return finished;
  }

  /** Flushes a trailing line without a newline (at stream end). */
  end(): string[] {
    if (this.#partial === "") return [];
    const line = this.#partial;
    this.#partial = "";
    this.#append(line);
    return [line];
  }

  /** The retained lines, oldest first, including an unfinished last line. */
  lines(): string[] {
    return this.#partial === "" ? [...this.#lines] : [...this.#lines, this.#partial].slice(-this.#maxLines);
  }

  #append(line: string): void {
    this.#lines.push(line);
    if (this.#lines.length > this.#maxLines) this.#lines.splice(0, this.#lines.length - this.#maxLines);
  }
}
