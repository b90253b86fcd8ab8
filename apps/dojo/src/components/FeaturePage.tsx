import { useCallback, useState } from "react";
import { newId } from "../agent/ids";
import { findThread, listThreads, loadCurrentThreadId, saveCurrentThreadId } from "../agent/threadStore";
import type { Feature } from "../features/featureCatalog";
import { CapabilitiesSummary } from "./CapabilitiesSummary";
import { ThreadPicker } from "./ThreadPicker";
import { ThreadView } from "./ThreadView";

/** One feature: its header, the thread picker, and the current thread. */
export function FeaturePage({ feature }: { feature: Feature }) {
  const [threadId, setThreadId] = useState(() => loadCurrentThreadId(feature.id) ?? newId());
  // Bumped whenever a thread is saved, so the picker re-reads localStorage.
  const [savedVersion, setSavedVersion] = useState(0);

  const selectThread = useCallback(
    (selected: string) => {
      saveCurrentThreadId(feature.id, selected);
      setThreadId(selected);
    },
    [feature.id],
  );

  const onSaved = useCallback(() => {
    saveCurrentThreadId(feature.id, threadId);
    setSavedVersion((version) => version + 1);
  }, [feature.id, threadId]);

  return (
    <main className="feature-page" data-testid={`page-${feature.id}`}>
      <header className="feature-header">
        <div>
          <h1 className="feature-title">{feature.title}</h1>
          <p className="feature-summary">{feature.summary}</p>
          <CapabilitiesSummary featureId={feature.id} />
        </div>
        <ThreadPicker
          key={savedVersion}
          threads={listThreads(feature.id)}
          currentThreadId={threadId}
          onSelect={selectThread}
          onNew={() => selectThread(newId())}
        />
      </header>
      {/* Keyed by thread: switching threads builds a fresh agent with that thread's history. */}
      <ThreadView key={threadId} feature={feature} threadId={threadId} stored={findThread(feature.id, threadId)} onSaved={onSaved} />
    </main>
  );
}
