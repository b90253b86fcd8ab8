import { useState } from "react";
import type { FeatureId } from "../features/featureCatalog";
import { sourcesOf } from "../features/featureSources";

/** The Code tab: the demo's server agent and its tools, then the page's code, one file at a time. */
export function CodeView({ featureId }: { featureId: FeatureId }) {
  const files = sourcesOf(featureId);
  const [selected, setSelected] = useState(0);
  const file = files[selected] ?? files[0];
  return (
    <section className="code-view" data-testid="code-view">
      <nav className="code-files" aria-label="Files">
        {files.map((entry, index) => (
          <button
            key={entry.path}
            type="button"
            className={index === selected ? "code-file active" : "code-file"}
            data-testid="code-file"
            data-side={entry.side}
            aria-pressed={index === selected}
            onClick={() => setSelected(index)}
          >
            <span className="code-side">{entry.side === "server" ? "server" : "page"}</span> {entry.path}
          </button>
        ))}
      </nav>
      {file === undefined ? null : (
        <pre className="code-text" data-testid="code-text" data-path={file.path}>
          <code>{file.text}</code>
        </pre>
      )}
    </section>
  );
}
