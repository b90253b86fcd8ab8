import { useEffect, useState } from "react";
import { isRecord } from "./json";

export type CapabilitiesResult = { status: "loading" } | { status: "unavailable"; reason: string } | { status: "loaded"; labels: string[] };

/** The AG-UI capability flags worth showing a visitor, as `category.flag` paths and their labels. */
const shownFlags: Array<[string, string, string]> = [
  ["transport", "streaming", "streaming"],
  ["reasoning", "supported", "reasoning"],
  ["tools", "supported", "server tools"],
  ["tools", "clientProvided", "frontend tools"],
  ["state", "snapshots", "state snapshots"],
  ["state", "deltas", "state deltas"],
  ["humanInTheLoop", "interrupts", "interrupts"],
  ["humanInTheLoop", "approvals", "approvals"],
  ["humanInTheLoop", "approveWithEdits", "edit before approving"],
];

/** Reads `GET /<feature>/capabilities` once per page, so the header can say what the agent advertises. */
export function useCapabilities(featureId: string): CapabilitiesResult {
  const [result, setResult] = useState<CapabilitiesResult>({ status: "loading" });
  useEffect(() => {
    const controller = new AbortController();
    fetch(`/${featureId}/capabilities`, { signal: controller.signal, headers: { accept: "application/json" } })
      .then(async (response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const body: unknown = await response.json();
        if (!isRecord(body)) throw new Error("not a JSON object");
        const labels = shownFlags
          .filter(([category, flag]) => {
            const section = body[category];
            return isRecord(section) && section[flag] === true;
          })
          .map(([, , label]) => label);
        setResult({ status: "loaded", labels });
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setResult({ status: "unavailable", reason: error instanceof Error ? error.message : String(error) });
      });
    return () => controller.abort();
  }, [featureId]);
  return result;
}
