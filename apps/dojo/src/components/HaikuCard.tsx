import { isRecord, stringArray } from "../agent/json";
import { ToolStatusPill, type ToolCallStatus } from "./ToolCallCard";

/** `generate_haiku`'s arguments rendered as the haiku itself, Japanese beside English. */
export function HaikuCard({ args, status }: { args: unknown; status: ToolCallStatus }) {
  const japanese = isRecord(args) ? stringArray(args["japanese"]) : [];
  const english = isRecord(args) ? stringArray(args["english"]) : [];
  const lineCount = Math.max(japanese.length, english.length);
  return (
    <figure className="haiku-card" data-testid="haiku-card" data-status={status}>
      <div className="haiku-header">
        <span className="card-label">Haiku</span>
        <ToolStatusPill status={status} />
      </div>
      {lineCount === 0 ? (
        <div className="haiku-placeholder">Composing…</div>
      ) : (
        <ol className="haiku-lines">
          {Array.from({ length: lineCount }, (_, index) => (
            <li key={index} className="haiku-line" data-testid="haiku-line">
              <span className="haiku-japanese" lang="ja">
                {japanese[index] ?? ""}
              </span>
              <span className="haiku-english">{english[index] ?? ""}</span>
            </li>
          ))}
        </ol>
      )}
    </figure>
  );
}
