/** Values a scenario can splice into text and arguments with `{{name}}`. */
export type TemplateVariables = Record<string, string>;

/** Replaces `{{name}}` with the variable's value; unknown names become empty strings. */
export function renderTemplate(template: string, variables: TemplateVariables): string {
  return template.replace(/\{\{\s*([a-zA-Z][a-zA-Z0-9_]*)\s*\}\}/g, (_match, name: string) => variables[name] ?? "");
}

/** Renders every string inside a JSON-like value. */
export function renderDeep(value: unknown, variables: TemplateVariables): unknown {
  if (typeof value === "string") return renderTemplate(value, variables);
  if (Array.isArray(value)) return value.map((item) => renderDeep(item, variables));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, renderDeep(inner, variables)]));
  }
  return value;
}
