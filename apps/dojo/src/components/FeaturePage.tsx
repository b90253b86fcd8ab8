import { useCallback, useState } from "react";
import { newId } from "../agent/ids";
import { findThread, listThreads, loadCurrentThreadId, saveCurrentThreadId } from "../agent/threadStore";
import type { Feature } from "../features/featureCatalog";
import { useHarnessKind } from "../agent/useHarnessKind";
import { CapabilitiesSummary } from "./CapabilitiesSummary";
import { CodeView } from "./CodeView";
import { ThreadPicker } from "./ThreadPicker";
import { ThreadView } from "./ThreadView";

/** One feature: its header, the thread picker, and the current thread (Preview) or its code (Code). */
export function FeaturePage({ feature }: { feature: Feature }) {
  const [tab, setTab] = useState<"preview" | "code">("preview");
  const harnessKind = useHarnessKind();
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
          {harnessKind === "emulator" ? (
            <p className="scripted-note" data-testid="scripted-note">
              Scripted replies: this server runs the harness emulator, not a model. For Gemini, install the harness
              (<code>pip install google-antigravity</code>), set <code>GEMINI_API_KEY</code> and restart the server.
            </p>
          ) : null}
          <div className="feature-tabs" role="tablist" aria-label="View">
            {(["preview", "code"] as const).map((name) => (
              <button key={name} type="button" role="tab" aria-selected={tab === name} className={tab === name ? "feature-tab active" : "feature-tab"} data-testid={`tab-${name}`} onClick={() => setTab(name)}>
                {name === "preview" ? "Preview" : "Code"}
              </button>
            ))}
          </div>
        </div>
        <ThreadPicker
          key={savedVersion}
          threads={listThreads(feature.id)}
          currentThreadId={threadId}
          onSelect={selectThread}
          onNew={() => selectThread(newId())}
        />
      </header>
      {/* Keyed by thread: switching threads builds a fresh agent with that thread's history. Hidden, not
          unmounted, under the Code tab, so a run in progress goes on. */}
      <div className="feature-preview" hidden={tab !== "preview"}>
        <ThreadView key={threadId} feature={feature} threadId={threadId} stored={findThread(feature.id, threadId)} onSaved={onSaved} />
      </div>
      {tab === "code" ? <CodeView featureId={feature.id} /> : null}
    </main>
  );
}
