import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod";
import { defaultClusterPort, defaultReplicaCount } from "./cluster.js";

/** What `pnpm cluster` was asked to run. Its usage text and `--help` / `--version` are scripts/cluster.mjs's, answered before any build. */
export interface ClusterArguments {
  replicas: number;
  port: number;
  /** Where the replicas', Redis's and HAProxy's logs go; kept after the cluster stops. */
  logDirectory: string | undefined;
}

export class ClusterArgumentError extends Error {
  override readonly name = "ClusterArgumentError";
}

const replicasSchema = z.coerce.number().int().min(1).max(16);
const portSchema = z.coerce.number().int().min(0).max(65_535);

/** `--replicas N` (or `--replicas=N`), default 3; `--logs DIR`; `CLUSTER_PORT`, default 8040. */
export function parseClusterArguments(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string = process.cwd()): ClusterArguments {
  let values;
  try {
    // `pnpm cluster -- --replicas 2` passes the `--` through; it ends nothing here.
    ({ values } = parseArgs({
      args: argv.filter((argument) => argument !== "--"),
      strict: true,
      allowPositionals: false,
      options: { replicas: { type: "string" }, logs: { type: "string" } },
    }));
  } catch (error) {
    throw new ClusterArgumentError(`${error instanceof Error ? error.message : String(error)} (pnpm cluster --help lists the options)`);
  }
  const replicasText = values.replicas;
  const replicas = replicasText === undefined ? { success: true as const, data: defaultReplicaCount } : replicasSchema.safeParse(replicasText);
  if (!replicas.success || (replicasText !== undefined && replicasText.trim() === "")) throw new ClusterArgumentError(`--replicas must be an integer from 1 to 16 (got ${JSON.stringify(replicasText)}).`);
  const portText = env["CLUSTER_PORT"]?.trim();
  const port = portText === undefined || portText === "" ? { success: true as const, data: defaultClusterPort } : portSchema.safeParse(portText);
  if (!port.success) throw new ClusterArgumentError(`CLUSTER_PORT must be an integer from 0 to 65535 (got ${JSON.stringify(portText)}).`);
  if (values.logs !== undefined && values.logs.trim() === "") throw new ClusterArgumentError("--logs needs a folder.");
  return { replicas: replicas.data, port: port.data, logDirectory: values.logs === undefined ? undefined : resolve(cwd, values.logs) };
}
