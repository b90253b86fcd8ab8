import { createHash } from "node:crypto";
import type { Tool } from "@ag-ui/client";

/**
 * A fingerprint of the tool contract a conversation was built with: every tool's name,
 * description and parameter schema, order-insensitive. A changed contract means the harness
 * conversation must be rebuilt (it learns its tools at init).
 */
export function toolSignature(tools: ReadonlyArray<Pick<Tool, "name" | "description" | "parameters">>): string {
  const canonical = [...tools]
    .map((tool) => JSON.stringify([tool.name, tool.description, canonicalJson(tool.parameters)]))
    .sort();
  return createHash("sha256").update(canonical.join("\n")).digest("hex").slice(0, 32);
}

function canonicalJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonicalJson);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([left], [right]) => left.localeCompare(right))
        .map(([key, inner]) => [key, canonicalJson(inner)]),
    );
  }
  return value;
}
