import { FeaturePage } from "./components/FeaturePage";
import { Sidebar } from "./components/Sidebar";
import { defaultFeature, featureById } from "./features/featureCatalog";
import { useHashRoute } from "./routing/useHashRoute";

export function App() {
  const route = useHashRoute();
  const feature = featureById(route) ?? defaultFeature;
  return (
    <div className="app">
      <Sidebar activeFeatureId={feature.id} />
      {/* Keyed by feature so each page starts from its own threads and agent. */}
      <FeaturePage key={feature.id} feature={feature} />
    </div>
  );
}
