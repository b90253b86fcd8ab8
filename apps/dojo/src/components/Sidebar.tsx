import { features } from "../features/featureCatalog";

export function Sidebar({ activeFeatureId }: { activeFeatureId: string }) {
  return (
    <nav className="sidebar" aria-label="Features">
      <div className="sidebar-brand">
        <span className="sidebar-logo" aria-hidden="true">◆</span>
        <div>
          <div className="sidebar-title">Antigravity dojo</div>
          <div className="sidebar-subtitle">AG-UI 1.0 over HTTP</div>
        </div>
      </div>
      <ul className="sidebar-list">
        {features.map((feature) => (
          <li key={feature.id}>
            <a
              href={`#/${feature.id}`}
              className={feature.id === activeFeatureId ? "sidebar-link active" : "sidebar-link"}
              aria-current={feature.id === activeFeatureId ? "page" : undefined}
              data-testid={`nav-${feature.id}`}
            >
              {feature.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
