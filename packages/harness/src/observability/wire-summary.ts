import type { WireRecord } from "./wire-record.js";

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined;
}

function short(text: unknown, limit = 60): string {
  if (typeof text !== "string") return "";
  const flat = text.replace(/\s+/g, " ");
  return flat.length > limit ? `${flat.slice(0, limit)}…` : flat;
}

/** One human-readable line per message for `ANTIGRAVITY_WIRE=summary`. */
export function summarizeWireRecord(record: WireRecord): string {
  const arrow = record.direction === "send" ? "→" : "←";
  const body = field(record.message, record.messageKey);
  const details: string[] = [];
  switch (record.messageKey) {
    case "stepUpdate": {
      details.push(`${String(field(body, "trajectoryId") ?? "")}:${String(field(body, "stepIndex") ?? 0)}`);
      details.push(String(field(body, "state") ?? ""));
      const delta = field(body, "textDelta") ?? field(body, "thinkingDelta");
      if (typeof delta === "string" && delta !== "") details.push(`+${delta.length} chars`);
      break;
    }
    case "trajectoryStateUpdate":
      details.push(String(field(body, "trajectoryId") ?? ""), String(field(body, "state") ?? ""));
      if (field(body, "error")) details.push(`error=${short(field(body, "error"))}`);
      break;
    case "toolCall":
      details.push(String(field(body, "name") ?? ""), `id=${String(field(body, "id") ?? "")}`);
      break;
    case "toolResponse":
      details.push(`id=${String(field(body, "id") ?? "")}`, field(body, "errorMessage") ? "error" : "ok");
      break;
    case "callHookRequest":
      details.push(String(field(body, "type") ?? ""), `request=${String(field(body, "requestId") ?? "")}`);
      break;
    case "userInput":
    case "automatedTrigger":
      details.push(JSON.stringify(short(body)));
      break;
    case "complexUserInput": {
      const parts = field(body, "parts");
      const list = Array.isArray(parts) ? parts : [];
      const text = list.map((part) => field(part, "text")).filter((value): value is string => typeof value === "string").join(" ");
      const others = list.length - list.filter((part) => typeof field(part, "text") === "string").length;
      details.push(JSON.stringify(short(text)));
      if (others > 0) details.push(`+${others} non-text part${others === 1 ? "" : "s"}`);
      break;
    }
    default:
      break;
  }
  const conversation = record.conversationId ? ` [${record.conversationId.slice(0, 8)}]` : "";
  return `antigravity ${record.channel}${conversation} ${arrow} ${record.messageKey}${details.length > 0 ? ` ${details.join(" ")}` : ""}`;
}
