import { useState, type FormEvent, type KeyboardEvent } from "react";

interface ComposerProps {
  suggestions: string[];
  disabled: boolean;
  placeholder: string;
  /** Set while a run streams: the send button becomes a stop button. */
  onStop: (() => void) | undefined;
  onSend(text: string): void;
}

export function Composer({ suggestions, disabled, placeholder, onStop, onSend }: ComposerProps) {
  const [text, setText] = useState("");

  const send = (): void => {
    if (disabled || text.trim() === "") return;
    onSend(text);
    setText("");
  };
  const onSubmit = (event: FormEvent): void => {
    event.preventDefault();
    send();
  };
  // Enter sends, Shift+Enter makes a new line, as in most chat apps.
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      send();
    }
  };

  return (
    <form className="composer" onSubmit={onSubmit}>
      {suggestions.length > 0 && (
        <div className="suggestions">
          {suggestions.map((suggestion) => (
            <button key={suggestion} type="button" className="suggestion" data-testid="suggestion" disabled={disabled} onClick={() => onSend(suggestion)}>
              {suggestion}
            </button>
          ))}
        </div>
      )}
      <div className="composer-row">
        <textarea
          className="composer-input"
          data-testid="chat-input"
          rows={1}
          value={text}
          placeholder={placeholder}
          disabled={disabled}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={onKeyDown}
        />
        {onStop === undefined ? (
          <button type="submit" className="button primary" data-testid="send-button" disabled={disabled || text.trim() === ""}>
            Send
          </button>
        ) : (
          <button type="button" className="button secondary" data-testid="stop-button" onClick={onStop}>
            Stop
          </button>
        )}
      </div>
    </form>
  );
}
