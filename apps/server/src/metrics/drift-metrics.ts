import type { DriftEntry } from "@ag-ui-antigravity/harness";
import { Counter, type Registry } from "prom-client";

/** Label values past this length are cut: the harness chooses them, and a label is not a log line. */
const MAX_LABEL_LENGTH = 80;
/** Distinct drift series kept; further kinds are counted under `value="(other)"` so a harness cannot blow up the registry. */
const MAX_SERIES = 500;

/**
 * The live drift report as a Prometheus counter: every unknown field, unknown enum value and
 * unparsable frame any harness process of the pool sent, by kind, message path, value and harness
 * version. Pass `record` as the harness `onDrift` option.
 */
export class DriftMetrics {
  readonly #counter: Counter<"kind" | "path" | "value" | "harness_version">;
  readonly #series = new Set<string>();

  constructor(registry: Registry) {
    this.#counter = new Counter({
      name: "antigravity_harness_protocol_drift_total",
      help: "Things the harness sent that this client does not know: unknown fields, unknown enum values, frames that did not parse, a harness newer than every release it knows.",
      labelNames: ["kind", "path", "value", "harness_version"],
      registers: [registry],
    });
  }

  readonly record = (entry: DriftEntry, context: { harnessVersion: string }): void => {
    const raw = entry.kind === "unknown-field" ? entry.key : entry.kind === "invalid-message" ? entry.reason : String(entry.value);
    const labels = { kind: entry.kind, path: cut(entry.path), value: cut(raw), harness_version: cut(context.harnessVersion) };
    const key = JSON.stringify(labels);
    if (!this.#series.has(key) && this.#series.size >= MAX_SERIES) labels.value = "(other)";
    else this.#series.add(key);
    this.#counter.inc(labels);
  };
}

function cut(text: string): string {
  return text.length > MAX_LABEL_LENGTH ? `${text.slice(0, MAX_LABEL_LENGTH)}…` : text;
}
