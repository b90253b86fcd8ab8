import { useCapabilities } from "../agent/useCapabilities";

/** What the feature's agent advertises at `/<feature>/capabilities`, as small chips under the title. */
export function CapabilitiesSummary({ featureId }: { featureId: string }) {
  const capabilities = useCapabilities(featureId);
  if (capabilities.status === "loading") return null;
  if (capabilities.status === "unavailable")
    return (
      <div className="capabilities muted" data-testid="capabilities" data-status="unavailable" title={capabilities.reason}>
        Capabilities unavailable
      </div>
    );
  return (
    <ul className="capabilities" data-testid="capabilities" data-status="loaded" aria-label="Agent capabilities">
      {capabilities.labels.map((label) => (
        <li key={label} className="capability" data-testid="capability">
          {label}
        </li>
      ))}
    </ul>
  );
}
