import { z } from "zod";
import { defaultClusterPort, defaultReplicaCount } from "./cluster.js";

export interface ClusterArguments {
  replicas: number;
  port: number;
}

export class ClusterArgumentError extends Error {
  override readonly name = "ClusterArgumentError";
}

const replicasSchema = z.coerce.number().int().min(1).max(16);
const portSchema = z.coerce.number().int().min(0).max(65_535);

/** `--replicas N` (or `--replicas=N`), default 3; `CLUSTER_PORT`, default 8040. */
export function parseClusterArguments(argv: readonly string[], env: NodeJS.ProcessEnv): ClusterArguments {
  let replicasText: string | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? "";
    if (argument === "--replicas") {
      replicasText = argv[index + 1] ?? "";
      index += 1;
    } else if (argument.startsWith("--replicas=")) replicasText = argument.slice("--replicas=".length);
    else if (argument === "--") continue;
    else throw new ClusterArgumentError(`Unknown argument ${JSON.stringify(argument)}. Usage: pnpm cluster [--replicas N] (CLUSTER_PORT=8040)`);
  }
  const replicas = replicasText === undefined ? { success: true as const, data: defaultReplicaCount } : replicasSchema.safeParse(replicasText);
  if (!replicas.success || (replicasText !== undefined && replicasText.trim() === "")) throw new ClusterArgumentError(`--replicas must be an integer from 1 to 16 (got ${JSON.stringify(replicasText)}).`);
  const portText = env["CLUSTER_PORT"]?.trim();
  const port = portText === undefined || portText === "" ? { success: true as const, data: defaultClusterPort } : portSchema.safeParse(portText);
  if (!port.success) throw new ClusterArgumentError(`CLUSTER_PORT must be an integer from 0 to 65535 (got ${JSON.stringify(portText)}).`);
  return { replicas: replicas.data, port: port.data };
}
