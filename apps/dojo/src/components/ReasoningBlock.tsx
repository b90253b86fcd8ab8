/** The model's reasoning, collapsed once it is done so the answer stays the focus. */
export function ReasoningBlock({ text, streaming }: { text: string; streaming: boolean }) {
  return (
    <details className="reasoning" data-testid="reasoning-block" open={streaming || undefined}>
      <summary className="reasoning-summary">{streaming ? "Thinking…" : "Thought process"}</summary>
      <div className="reasoning-text" data-testid="reasoning-text">
        {text}
      </div>
    </details>
  );
}
