/**
 * Which messages ANTIGRAVITY_WIRE asks to print. The variable is a comma- or space-separated list:
 * `harness` (stdio handshake frames), `ws` (every WebSocket message), a top-level message key such
 * as `stepUpdate` (only those WebSocket messages), `summary` (one line per message instead of the
 * JSON), and `all` / `1` / `*` for everything. `userInput` also selects `complexUserInput`: both
 * start a turn, the second carries multi-part input.
 */
export interface WireSelection {
  harness: boolean;
  allWebSocketMessages: boolean;
  messageKeys: ReadonlySet<string>;
  summary: boolean;
}

export function parseWireSelection(value: string | undefined): WireSelection | undefined {
  if (value === undefined) return undefined;
  const selectors = value
    .split(/[\s,]+/)
    .map((selector) => selector.trim())
    .filter((selector) => selector !== "" && selector !== "0" && selector.toLowerCase() !== "false");
  if (selectors.length === 0) return undefined;
  let harness = false;
  let allWebSocketMessages = false;
  let summary = false;
  const messageKeys = new Set<string>();
  for (const selector of selectors) {
    const lowered = selector.toLowerCase();
    if (lowered === "all" || lowered === "*" || lowered === "1" || lowered === "true") {
      harness = true;
      allWebSocketMessages = true;
    } else if (lowered === "harness") harness = true;
    else if (lowered === "ws") allWebSocketMessages = true;
    else if (lowered === "summary") summary = true;
    else messageKeys.add(selector);
  }
  // `summary` alone means "summarise everything".
  if (!harness && !allWebSocketMessages && messageKeys.size === 0) {
    harness = true;
    allWebSocketMessages = true;
  }
  return { harness, allWebSocketMessages, messageKeys, summary };
}

/** Message keys a selector stands for besides itself: the same thing under another wire name. */
const SELECTOR_ALIASES: Readonly<Record<string, readonly string[]>> = { userInput: ["complexUserInput"] };

export function wireSelectionIncludes(selection: WireSelection, channel: "harness" | "ws", messageKey: string): boolean {
  if (channel === "harness") return selection.harness;
  if (selection.allWebSocketMessages || selection.messageKeys.has(messageKey)) return true;
  for (const selector of selection.messageKeys) {
    if (SELECTOR_ALIASES[selector]?.includes(messageKey)) return true;
  }
  return false;
}
