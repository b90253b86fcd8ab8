import { join } from "node:path";
import type { AntigravityAgentOptions, ThreadStore } from "@ag-ui-antigravity/agent";
import type { HarnessPool } from "@ag-ui-antigravity/pool";
import type { HarnessChoice } from "../harness/harness-choice.js";
import { scenariosDirectory } from "../package-paths.js";

/** What every demo agent is built from: the harness decision, the shared pool, the workspace root. */
export interface DemoAgentEnvironment {
  harness: HarnessChoice;
  /** One pool for every agent, so the demo runs on as few harness processes as possible. */
  pool: HarnessPool;
  /** Each thread gets its own short-named directory under it. */
  workspaceRoot: string;
  /** The write_file tool's per-conversation sandboxes live under it. */
  sandboxRoot: string;
  /** How long each agentic_generative_ui step takes. */
  taskStepDelayMs: number;
  logger: NonNullable<AntigravityAgentOptions["logger"]>;
  /** Where conversations persist (SAVE_DIR), for cold resume after a restart or on another replica. */
  saveDir?: string;
  /** One thread map shared by every agent (file or Redis); absent: each agent's default. */
  threadStore?: ThreadStore;
}

/** The demo features, named exactly like the AG-UI dojo's feature ids (they are also the routes). */
export const demoFeatures = [
  "agentic_chat",
  "backend_tool_rendering",
  "human_in_the_loop",
  "tool_based_generative_ui",
  "shared_state",
  "agentic_generative_ui",
  "tool_approval",
  "questions",
  "reconnect",
  "autonomous_work",
] as const;
export type DemoFeature = (typeof demoFeatures)[number];

/** The emulator scenario of a feature: `scenarios/<feature>.json` in this package. */
export function scenarioPath(feature: DemoFeature): string {
  return join(scenariosDirectory(), `${feature}.json`);
}

/**
 * The options every demo agent shares. On the emulator the model name selects the feature's
 * scenario (`emulator:/abs/path.json`); on the real harness it is GEMINI_MODEL, or the harness's
 * default when that is unset.
 */
export function sharedAgentOptions(environment: DemoAgentEnvironment, feature: DemoFeature, description: string): AntigravityAgentOptions {
  const { harness } = environment;
  const model = harness.kind === "emulator" ? `emulator:${scenarioPath(feature)}` : harness.model;
  return {
    agentId: feature,
    description,
    harness: { path: harness.binaryPath },
    ...(model === undefined ? {} : { model }),
    ...(harness.kind === "real" ? { apiKey: harness.apiKey } : {}),
    pool: environment.pool,
    workspaceRoot: environment.workspaceRoot,
    // A new thread's first run takes a conversation opened ahead of it instead of waiting for one.
    prewarm: { spares: 1 },
    logger: environment.logger,
    ...(environment.saveDir === undefined ? {} : { saveDir: environment.saveDir }),
    ...(environment.threadStore === undefined ? {} : { threadStore: environment.threadStore }),
  };
}

/**
 * With Gemini, a summary of the run's context and shared state goes in front of each message, so
 * the page's edits reach the model without a tool call. Not on the emulator: its scripted rules
 * match keywords in the whole input text, and the summary (the recipe's JSON, say) would trigger
 * them; the emulator's scenarios read state through tools instead.
 */
export function modelSeesStateSummary(environment: DemoAgentEnvironment): boolean {
  return environment.harness.kind === "real";
}
