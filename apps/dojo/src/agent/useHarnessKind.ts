import { useEffect, useState } from "react";
import { isRecord } from "./json";

/** Which harness the server runs (its `/metrics` says): `emulator` means scripted replies, no model. */
export type HarnessKind = "real" | "emulator" | "unknown";

/** Reads `GET /metrics` (JSON) once; `unknown` until it answers, or when it cannot. */
export function useHarnessKind(): HarnessKind {
  const [kind, setKind] = useState<HarnessKind>("unknown");
  useEffect(() => {
    const controller = new AbortController();
    fetch("/metrics", { signal: controller.signal, headers: { accept: "application/json" } })
      .then(async (response) => {
        if (!response.ok) return;
        const body: unknown = await response.json();
        const harness = isRecord(body) ? body["harness"] : undefined;
        const reported = isRecord(harness) ? harness["kind"] : undefined;
        if (reported === "real" || reported === "emulator") setKind(reported);
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, []);
  return kind;
}
