import { z } from "zod";

/** int32 on the wire: a number, or a decimal string as protojson allows. */
const int32 = z.union([z.number(), z.string().regex(/^-?\d+$/).transform(Number)]);

/** One `HarnessConfig.mcpServers` entry (`McpServerConfig`). Unknown fields are kept. */
export const mcpServerConfigSchema = z.looseObject({
  name: z.string().default(""),
  stdio: z
    .looseObject({
      command: z.string().optional(),
      args: z.array(z.string()).optional(),
      env: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
  http: z.looseObject({ url: z.string().optional(), headers: z.record(z.string(), z.string()).optional() }).optional(),
  enabledTools: z.array(z.string()).optional(),
  disabledTools: z.array(z.string()).optional(),
  timeoutSeconds: int32.optional(),
});
export type McpServerConfig = z.infer<typeof mcpServerConfigSchema>;

/**
 * The configured servers, or a description of why the list cannot be read. A malformed entry is
 * a load failure of that server, as it would be for the harness, rather than a closed connection.
 */
export function readMcpServerConfigs(value: unknown): { servers: McpServerConfig[]; invalid: { name: string; reason: string } | undefined } {
  if (value === undefined) return { servers: [], invalid: undefined };
  if (!Array.isArray(value)) return { servers: [], invalid: { name: "", reason: "mcpServers is not a list" } };
  const servers: McpServerConfig[] = [];
  for (const [index, entry] of value.entries()) {
    const parsed = mcpServerConfigSchema.safeParse(entry);
    if (!parsed.success) {
      const name = typeof entry === "object" && entry !== null && typeof (entry as { name?: unknown }).name === "string" ? (entry as { name: string }).name : `#${index}`;
      return { servers, invalid: { name, reason: `invalid configuration: ${parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}` } };
    }
    servers.push(parsed.data);
  }
  return { servers, invalid: undefined };
}
