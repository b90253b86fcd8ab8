import { HarnessProcess } from "../process/harness-process.js";

/** How one text turn went: the time to its first text and to its end, or why it failed. */
export type SmokeResult = { ok: true; firstTextMs: number; totalMs: number } | { ok: false; error: string };

const SMOKE_TIMEOUT_MS = 120_000;

/**
 * One short text turn on the binary, with the key from the environment: what `doctor --smoke` runs.
 * The process is always closed; a failure is a result, not an exception.
 */
export async function smokeTurn(options: { binaryPath: string; harnessVersion?: string | undefined; env: Readonly<Record<string, string | undefined>> }): Promise<SmokeResult> {
  const env: Record<string, string> = {};
  for (const name of ["GEMINI_API_KEY", "ANTIGRAVITY_HARNESS_VERSION", "ANTIGRAVITY_EMULATOR_HARNESS_VERSION"]) {
    const value = options.env[name];
    if (value !== undefined && value !== "") env[name] = value;
  }
  const started = Date.now();
  let harness: HarnessProcess | undefined;
  try {
    harness = await HarnessProcess.start({
      binaryPath: options.binaryPath,
      env,
      record: false,
      signal: AbortSignal.timeout(SMOKE_TIMEOUT_MS),
      ...(options.harnessVersion === undefined ? {} : { harnessVersion: options.harnessVersion }),
    });
    const conversation = await harness.openConversation({ builtinTools: [], turnTimeoutMs: SMOKE_TIMEOUT_MS });
    const turn = conversation.send("Reply with one short sentence saying you are ready.");
    let firstTextMs: number | undefined;
    for await (const step of turn) if (firstTextMs === undefined && step.textDelta !== "") firstTextMs = Date.now() - started;
    const result = await turn.result;
    if (result.text === "") return { ok: false, error: "the turn ended without any text" };
    return { ok: true, firstTextMs: firstTextMs ?? Date.now() - started, totalMs: Date.now() - started };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message.split("\n")[0] ?? error.message : String(error) };
  } finally {
    await harness?.close({ gracePeriodMs: 2_000 });
  }
}
