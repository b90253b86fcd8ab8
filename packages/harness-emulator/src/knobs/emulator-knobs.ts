import { defaultHarnessVersion } from "../version/version-profile.js";

/** Behaviour switches read from the environment (process env merged with InputConfig.env, the latter winning). */
export interface EmulatorKnobs {
  /** Scenario name or JSON file path; the model name `emulator:<scenario>` takes precedence. */
  scenario: string | undefined;
  /**
   * The harness release to play for the whole process (`--harness-version`); default the newest
   * known. Checked when the process starts: an unknown release fails the start.
   */
  harnessVersion: string;
  /**
   * Refuse what the played release's parser would refuse (unknown fields and enum names, wrong JSON
   * types, two members of a oneof), as the real harness does. On unless a test turns it off.
   */
  strict: boolean;
  /** Counter-based ids, a fixed clock and no streaming delays, so two runs produce the same frames. */
  deterministic: boolean;
  /** Delay between streamed chunks, in milliseconds. */
  tokenDelayMs: number;
  /** Characters per streamed text/thinking delta. */
  chunkSize: number;
  /** Interval at which waiting steps are re-sent; 0 disables re-broadcast. */
  rebroadcastMs: number;
  /** Reproduce the 0.1.10 crash when a trigger reaches a conversation with no history. */
  triggerCrashOnEmpty: boolean;
  /** Put `seqNum` and `timestampMicros` on every OutputEvent. */
  envelope: boolean;
  /** Move custom tool calls to the background after this many ms without a result; 0 = never. */
  backgroundToolMs: number;
  /** A wire recording to play back instead of scenarios (`--replay <file>`). */
  replay: string | undefined;
  /** Dotted paths whose values may differ from the recording during replay. */
  replayIgnore: string[];
  /** Honour the recorded gaps between frames during replay. */
  replayTiming: boolean;
  /**
   * A resume (CREATE_OR_RESUME or UNSPECIFIED) of an id it does not have: start an empty
   * conversation under that id (`empty`), or refuse it like RESUME does (`refuse`). The real
   * harness's choice is not known (docs/protocol.md, "Assumptions and how we hedge them").
   */
  unknownResume: "empty" | "refuse";
  /**
   * A plain HTTP request (no WebSocket upgrade) to the port: answered with 426 (`answer`), never
   * answered (`silent`), or its connection reset (`reset`).
   */
  plainHttp: "answer" | "silent" | "reset";
  /**
   * What follows a tool call the client denied (pre-tool hook, policy or confirmation): the step at
   * STATE_ERROR with the reason (`error`), nothing more (`none`), or the step at STATE_DONE with no
   * result and no error (`done`).
   */
  deniedStep: "error" | "none" | "done";
  /**
   * Consecutive `subagent-run` actions run at once (the later started first) instead of one after
   * another: whether the real harness links a subagent's trajectory to its call is not known.
   */
  parallelSubagents: boolean;
  /** A pause before the idle that ends a turn, or confirms a halt: a harness slower to finish. 0 = none. */
  idleDelayMs: number;
  /** How long a WebSocket ping waits for its pong: a slower harness, or a busy host. 0 = at once. */
  pongDelayMs: number;
}

const prefix = "ANTIGRAVITY_EMULATOR_";

function readNumber(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[prefix + name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

function readFlag(env: Record<string, string | undefined>, name: string, fallback: boolean): boolean {
  const raw = env[prefix + name];
  if (raw === undefined || raw.trim() === "") return fallback;
  return !["0", "false", "no", "off"].includes(raw.trim().toLowerCase());
}

function readChoice<Choice extends string>(env: Record<string, string | undefined>, name: string, choices: readonly Choice[], fallback: Choice): Choice {
  const raw = env[prefix + name]?.trim().toLowerCase();
  return choices.find((choice) => choice === raw) ?? fallback;
}

function readText(env: Record<string, string | undefined>, name: string): string | undefined {
  const raw = env[prefix + name]?.trim();
  return raw === undefined || raw === "" ? undefined : raw;
}

/** Parses the knobs; unknown or malformed values fall back to defaults rather than failing the start. */
export function readKnobs(env: Record<string, string | undefined>): EmulatorKnobs {
  const deterministic = readFlag(env, "DETERMINISTIC", false);
  const scenario = env[prefix + "SCENARIO"];
  return {
    scenario: scenario === undefined || scenario.trim() === "" ? undefined : scenario.trim(),
    harnessVersion: readText(env, "HARNESS_VERSION") ?? defaultHarnessVersion,
    strict: readFlag(env, "STRICT", true),
    deterministic,
    tokenDelayMs: readNumber(env, "TOKEN_DELAY_MS", deterministic ? 0 : 15),
    chunkSize: Math.max(1, Math.floor(readNumber(env, "CHUNK_SIZE", 12))),
    rebroadcastMs: readNumber(env, "REBROADCAST_MS", 1000),
    triggerCrashOnEmpty: readFlag(env, "TRIGGER_CRASH", false),
    envelope: readFlag(env, "ENVELOPE", true),
    backgroundToolMs: readNumber(env, "BACKGROUND_TOOL_MS", 0),
    replay: readText(env, "REPLAY"),
    replayIgnore: (readText(env, "REPLAY_IGNORE") ?? "")
      .split(/[\s,]+/)
      .filter((path) => path !== ""),
    replayTiming: readFlag(env, "REPLAY_TIMING", false),
    unknownResume: readChoice(env, "UNKNOWN_RESUME", ["empty", "refuse"], "empty"),
    plainHttp: readChoice(env, "PLAIN_HTTP", ["answer", "silent", "reset"], "answer"),
    deniedStep: readChoice(env, "DENIED_STEP", ["error", "none", "done"], "error"),
    parallelSubagents: readFlag(env, "PARALLEL_SUBAGENTS", false),
    idleDelayMs: readNumber(env, "IDLE_DELAY_MS", 0),
    pongDelayMs: readNumber(env, "PONG_DELAY_MS", 0),
  };
}
