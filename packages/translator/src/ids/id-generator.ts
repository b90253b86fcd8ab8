/** Mints the ids of messages, reasoning spans, synthetic tool calls and subagent invocations. */
export type IdGenerator = () => string;

/**
 * Random UUIDs from the platform's Web Crypto (Node 20, browsers): the default in production.
 *
 * @example
 * const translator = new StepTranslator({ ids: randomIds() });
 */
export function randomIds(): IdGenerator {
  return () => globalThis.crypto.randomUUID();
}

/** How `sequentialIds` spells its ids: the prefix before each number. */
export interface SequentialIdsOptions {
  /** Put before every id; defaults to `"id"`. */
  prefix?: string;
}

/**
 * Deterministic ids (`id-1`, `id-2`, ...), for tests and golden files. Each generator counts on
 * its own, so two translators built with two generators never share state.
 *
 * @example
 * const next = sequentialIds({ prefix: "msg" });
 * next(); // "msg-1"
 */
export function sequentialIds(options: SequentialIdsOptions = {}): IdGenerator {
  const prefix = options.prefix ?? "id";
  let counter = 0;
  return () => {
    counter += 1;
    return `${prefix}-${counter}`;
  };
}
