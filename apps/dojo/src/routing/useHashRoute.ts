import { useEffect, useState } from "react";

/**
 * The page is picked by the hash (`/dojo/#/shared_state`), so apps/server only has to serve one
 * index.html under /dojo/ and any feature can be bookmarked.
 */
function routeFromHash(): string {
  return window.location.hash.replace(/^#\/?/, "").split(/[/?]/)[0] ?? "";
}

export function useHashRoute(): string {
  const [route, setRoute] = useState(routeFromHash);
  useEffect(() => {
    const onChange = (): void => setRoute(routeFromHash());
    window.addEventListener("hashchange", onChange);
    return () => window.removeEventListener("hashchange", onChange);
  }, []);
  return route;
}
