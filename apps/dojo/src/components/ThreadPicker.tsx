import type { StoredThread } from "../agent/threadStore";

interface ThreadPickerProps {
  threads: StoredThread[];
  currentThreadId: string;
  onSelect(threadId: string): void;
  onNew(): void;
}

/** New thread, or continue one kept in this browser; parked threads say they are waiting for you. */
export function ThreadPicker({ threads, currentThreadId, onSelect, onNew }: ThreadPickerProps) {
  const isSaved = threads.some((thread) => thread.threadId === currentThreadId);
  return (
    <div className="thread-picker">
      <label className="thread-picker-label" htmlFor="thread-select">
        Thread
      </label>
      <select id="thread-select" data-testid="thread-picker" value={currentThreadId} onChange={(event) => onSelect(event.target.value)}>
        {!isSaved && <option value={currentThreadId}>New thread</option>}
        {threads.map((thread) => (
          <option key={thread.threadId} value={thread.threadId}>
            {thread.title}
            {thread.waiting ? " · waiting for you" : ""}
          </option>
        ))}
      </select>
      <button type="button" className="button secondary" data-testid="new-thread" onClick={onNew}>
        New thread
      </button>
    </div>
  );
}
