import { httpError, type HttpErrorReply } from "../errors/http-error.js";

const PLAIN_KEY = '"threadId"';

/**
 * Whether the body's JSON text names its thread in a way a proxy could read differently from the
 * binding: `threadId` twice at the top level (`JSON.parse` keeps the last, HAProxy's `json_query`
 * and the regular expression deploy/ falls back on take the first), or written with `\u` escapes
 * (which a proxy that compares raw bytes does not see as `threadId`). Either would let a run land on
 * one replica while its thread is routed to another, so such a body is refused (400).
 *
 * Cheap for the common body: one `"threadId"` and no `\u` escape anywhere needs no scan. Otherwise
 * the top level is scanned once, strings skipped by `indexOf`, never parsed again.
 */
export function checkThreadIdKey(text: string): HttpErrorReply | undefined {
  const first = text.indexOf(PLAIN_KEY);
  if ((first === -1 || text.indexOf(PLAIN_KEY, first + PLAIN_KEY.length) === -1) && !text.includes("\\u")) return undefined;
  const { plain, escaped } = countTopLevelThreadIdKeys(text);
  if (plain + escaped <= 1 && escaped === 0) return undefined;
  return httpError(
    "INVALID_INPUT",
    escaped > 0 ? 'The body\'s "threadId" key must be written plainly (no \\u escapes): proxies route on it.' : 'The body names "threadId" more than once; send it once.',
    { issues: [{ path: "/threadId", message: escaped > 0 ? "written with escapes" : "repeated" }] },
  );
}

/** The top-level keys of a JSON object text that read `threadId`: written plainly, and written with escapes. */
export function countTopLevelThreadIdKeys(text: string): { plain: number; escaped: number } {
  let plain = 0;
  let escaped = 0;
  let depth = 0;
  // At depth 1 of an object, a string that follows `{` or `,` is a key.
  let expectKey = false;
  let index = 0;
  const length = text.length;
  while (index < length) {
    const character = text.charCodeAt(index);
    if (character === 0x22 /* " */) {
      const end = endOfString(text, index);
      if (depth === 1 && expectKey) {
        const raw = text.slice(index, end + 1);
        if (raw === PLAIN_KEY) plain += 1;
        else if (raw.includes("\\") && decodes(raw) === "threadId") escaped += 1;
        expectKey = false;
      }
      index = end + 1;
      continue;
    }
    if (character === 0x7b /* { */ || character === 0x5b /* [ */) {
      depth += 1;
      expectKey = depth === 1 && character === 0x7b;
    } else if (character === 0x7d /* } */ || character === 0x5d /* ] */) {
      depth -= 1;
    } else if (character === 0x2c /* , */ && depth === 1) {
      expectKey = true;
    }
    index += 1;
  }
  return { plain, escaped };
}

/** The index of the quote that closes the string opening at `start` (the text's end when it never closes). */
function endOfString(text: string, start: number): number {
  let quote = text.indexOf('"', start + 1);
  while (quote !== -1) {
    let backslashes = 0;
    for (let before = quote - 1; text.charCodeAt(before) === 0x5c /* \ */; before -= 1) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    quote = text.indexOf('"', quote + 1);
  }
  return text.length - 1;
}

function decodes(raw: string): string | undefined {
  try {
    return JSON.parse(raw) as string;
  } catch {
    return undefined;
  }
}
