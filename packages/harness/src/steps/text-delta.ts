/** The cumulative text of a step after an update, and what that update added. */
export interface TextProgress {
  cumulative: string;
  delta: string;
}

/**
 * Works out what an update adds to a step's text, given what the consumer has already seen.
 * The cumulative field is the authority; the wire delta is used alone only when no cumulative
 * text was sent. Re-broadcasts add nothing, and text that does not extend what was seen (the
 * harness rewrote it) is delivered whole, since no suffix of it is known to be new.
 */
export function textProgress(seen: string, cumulative: string | undefined, wireDelta: string | undefined): TextProgress {
  // An explicitly present "" carries no information (proto3 presence); it must not erase what was seen.
  if (cumulative === undefined || (cumulative === "" && seen !== "")) {
    if (wireDelta === undefined || wireDelta === "") return { cumulative: seen, delta: "" };
    return { cumulative: seen + wireDelta, delta: wireDelta };
  }
  if (cumulative === seen) return { cumulative, delta: "" };
  if (extendsText(cumulative, seen)) {
    // When the wire delta is consistent (seen + delta === cumulative) this is exactly that delta.
    return { cumulative, delta: cumulative.slice(seen.length) };
  }
  return { cumulative, delta: cumulative };
}

/**
 * Whether `text` begins with `prefix`. `String.prototype.startsWith` compares character by
 * character, which on a reply that every frame repeats (thousands of characters, thousands of
 * frames) dominated a turn's CPU; a slice of a flat string is a view, not a copy, and `===` on two
 * strings compares their memory at once.
 */
function extendsText(text: string, prefix: string): boolean {
  return text.length >= prefix.length && text.slice(0, prefix.length) === prefix;
}
