import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { setMaxListeners } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Conversation } from "../conversation/conversation.js";
import { probeHarnessWebSocket } from "../conversation/connect-websocket.js";
import type { ConversationConfig } from "../conversation/conversation-config.js";
import type { ConversationHost } from "../conversation/conversation-host.js";
import { HarnessError } from "../errors/harness-error.js";
import { brandClass, hasBrand, type Logger, shieldLogger, throwIfAborted } from "@ag-ui-antigravity/foundation";
import { settleWithin } from "../internal/settle-within.js";
import { Redactor } from "../observability/redactor.js";
import { recordingFile, WireRecorder } from "../observability/wire-recorder.js";
import { WireTap } from "../observability/wire-tap.js";
import { DriftRegistry, type DriftReport } from "../protocol/drift.js";
import { encodeFrame } from "../protocol/frames.js";
import { encodeInputConfig, type InputConfig } from "../protocol/handshake.js";
import { signalProcessGroup, untrackProcessGroup } from "./child-reaper.js";
import { typescriptClientInfo } from "./client-info.js";
import { findHarnessBinary } from "./find-harness-binary.js";
import { describeHarnessBinary, describeSource, EMULATOR_VERSION_VARIABLE } from "./harness-version.js";
import { firstSightingForLogger } from "./drift-warnings.js";
import { ProtocolSkewWatcher } from "./protocol-skew.js";
import { announceProtocol, protocolFor, type HarnessProtocolInfo } from "./harness-protocol.js";
import { readOutputConfig, STDERR_SETTLE_MS, writeWithBackpressure } from "./stdio-handshake.js";
import type { HarnessProcessCloseOptions, HarnessProcessExit, HarnessProcessOptions } from "./harness-process-options.js";
import { minimalEnvironment } from "./minimal-environment.js";
import type { StderrRing } from "./stderr-ring.js";
import { spawnHarness, type SpawnedHarness } from "./spawn-harness.js";

const DEFAULT_HANDSHAKE_TIMEOUT_MS = 60_000;
const DEFAULT_GRACE_PERIOD_MS = 5_000;
/** How long SIGTERM gets before SIGKILL, and SIGKILL before we stop waiting. */
const SIGNAL_GRACE_MS = 1_000;

/** Options of `HarnessProcess.openConversation`: a signal that abandons the opening. */
export interface OpenConversationOptions {
  /** Abandons the opening (connect and init): it rejects with the signal's reason. Only the opening; the open conversation does not watch it. */
  signal?: AbortSignal;
}

export type { HarnessProtocolInfo } from "./harness-protocol.js";

/**
 * One running localharness process. It hosts any number of conversations, each on its own
 * WebSocket with its own HarnessConfig. Start it with `HarnessProcess.start`, end it with `close()`.
 *
 * @example
 * const harness = await HarnessProcess.start({ binaryPath });
 * const conversation = await harness.openConversation({ model: "gemini-3.6-flash" });
 * const turn = conversation.send("hello");
 * for await (const step of turn) process.stdout.write(step.textDelta);
 * await harness.close();
 */
export class HarnessProcess {
  static {
    brandClass(this, "HarnessProcess");
  }

  /** True for a HarnessProcess from any copy of this package (its ESM or CJS build, a duplicated install), where `instanceof` is not. */
  static isInstance(value: unknown): value is HarnessProcess {
    return hasBrand(value, "HarnessProcess");
  }

  /** The harness's process id, also its process group's (what `close` signals); -1 if Node reported none. */
  readonly pid: number;
  /** The WebSocket port the harness reported in its handshake, which its conversations connect to. */
  readonly port: number;
  /** Where the harness persists trajectories: the `storageDirectory` option, or a temporary directory this process removes at close. */
  readonly storageDirectory: string;
  /** Aborted with a CONNECTION_CLOSED HarnessError when the process exits or is closed. */
  readonly signal: AbortSignal;
  /** Resolves when `close()` has finished (or the process died and was cleaned up). */
  readonly closed: Promise<void>;
  /** Resolves with the exit code and signal once the process has exited. */
  readonly exited: Promise<HarnessProcessExit>;
  /** The harness's version as far as it can be told from its install, else "unknown" (the wire does not say). */
  readonly harnessVersion: string;
  /** The protocol release the client speaks to this process, where that choice came from, and its dialect. */
  readonly protocol: HarnessProtocolInfo;

  readonly #child: ChildProcessWithoutNullStreams;
  readonly #harnessToken: string;
  readonly #logger: Logger;
  readonly #redactor: Redactor;
  readonly #wireTap: WireTap;
  readonly #recorder: WireRecorder | undefined;
  readonly #drift: DriftRegistry;
  readonly #stderr: StderrRing;
  readonly #stderrEnded: Promise<void>;
  readonly #ownsStorageDirectory: boolean;
  readonly #configuredEnvironment: Readonly<Record<string, string>>;
  readonly #abortController = new AbortController();
  readonly #conversations = new Set<Conversation>();
  readonly #skew: ProtocolSkewWatcher;
  #exit: HarnessProcessExit | undefined;
  #closing: Promise<void> | undefined;
  #resolveClosed!: () => void;

  private constructor(init: {
    child: ChildProcessWithoutNullStreams;
    port: number;
    harnessToken: string;
    storageDirectory: string;
    ownsStorageDirectory: boolean;
    logger: Logger;
    redactor: Redactor;
    wireTap: WireTap;
    recorder: WireRecorder | undefined;
    stderr: StderrRing;
    stderrEnded: Promise<void>;
    exited: Promise<HarnessProcessExit>;
    configuredEnvironment: Record<string, string>;
    harnessVersion: string;
    protocol: HarnessProtocolInfo;
    skew: ProtocolSkewWatcher;
    onDrift: HarnessProcessOptions["onDrift"];
    /** The logger object the caller passed (or the process's own), which drift warnings are deduplicated against. */
    loggerIdentity: object;
  }) {
    this.#child = init.child;
    this.pid = init.child.pid ?? -1;
    this.port = init.port;
    this.#harnessToken = init.harnessToken;
    this.storageDirectory = init.storageDirectory;
    this.#ownsStorageDirectory = init.ownsStorageDirectory;
    this.#logger = init.logger;
    this.#redactor = init.redactor;
    this.#wireTap = init.wireTap;
    this.#recorder = init.recorder;
    this.#stderr = init.stderr;
    this.#stderrEnded = init.stderrEnded;
    this.#configuredEnvironment = init.configuredEnvironment;
    this.harnessVersion = init.harnessVersion;
    this.protocol = init.protocol;
    this.#skew = init.skew;
    this.#drift = new DriftRegistry({
      onRecord: (entry, firstSeen) => {
        if (firstSeen && firstSightingForLogger(init.loggerIdentity, entry, init.harnessVersion)) {
          this.#logger.warn({ ...entry, harnessVersion: init.harnessVersion }, "harness protocol drift: the harness sent something this client does not know");
        }
        init.onDrift?.(entry, { harnessVersion: init.harnessVersion });
      },
    });
    this.signal = this.#abortController.signal;
    // Every conversation on the process listens for its end; dozens at once are normal, not a leak.
    setMaxListeners(0, this.signal);
    this.closed = new Promise<void>((resolve) => {
      this.#resolveClosed = resolve;
    });
    this.exited = init.exited;
    void this.exited.then((exit) => this.#onExit(exit));
    if (init.protocol.newerThanKnown) this.#drift.record({ kind: "harness-version", path: "harness", value: init.protocol.version });
  }

  /**
   * Spawns the harness in its own process group with a minimal environment, writes the framed
   * InputConfig and reads the framed OutputConfig. Fails with HARNESS_NOT_FOUND, SPAWN_FAILED or
   * HANDSHAKE_FAILED (carrying the stderr tail); a failed start leaves no process behind.
   */
  static async start(options: HarnessProcessOptions = {}): Promise<HarnessProcess> {
    throwIfAborted(options.signal);
    const logger = shieldLogger(options.logger);
    const redactor = new Redactor();
    for (const [name, value] of Object.entries(options.env ?? {})) {
      if (/key|token|secret|password|credential/i.test(name)) redactor.addSecret(value);
    }
    const binaryPath =
      options.binaryPath ?? (await findHarnessBinary({ ...options.discovery, ...(options.signal ? { signal: options.signal } : {}) }));
    const recordPath = recordingFile(options.record === false ? undefined : options.record || process.env.ANTIGRAVITY_WIRE_RECORD || undefined);
    const clientInfo = typescriptClientInfo();
    const binary = describeHarnessBinary(binaryPath);
    const protocol = protocolFor(options, binaryPath);
    announceProtocol(logger, options.logger ?? logger, protocol);
    const recorder =
      recordPath === undefined
        ? undefined
        : new WireRecorder(recordPath, { client: { language: clientInfo.language ?? "typescript", version: clientInfo.version ?? "" }, harness: { ...binary, protocol: protocol.dialect.version } }, logger);
    const wireTap = new WireTap({
      logger,
      redactor,
      inspector: options.inspector,
      selection: options.wire ?? process.env.ANTIGRAVITY_WIRE,
      loggerConfigured: options.logger !== undefined,
      recorder,
    });
    const ownsStorageDirectory = options.storageDirectory === undefined;
    const storageDirectory = options.storageDirectory ?? (await mkdtemp(join(tmpdir(), "antigravity-")));
    const configuredEnvironment = { ...options.env };
    // A version the user pinned reaches the emulator too, so both sides speak it (docs/protocol.md, "Versions").
    if (/\.(c|m)?js$/.test(binaryPath) && (protocol.source === "option" || protocol.source === "environment") && configuredEnvironment[EMULATOR_VERSION_VARIABLE] === undefined) {
      configuredEnvironment[EMULATOR_VERSION_VARIABLE] = protocol.dialect.version;
    }
    const skew = new ProtocolSkewWatcher({
      describe: () => `this client speaks harness protocol ${protocol.dialect.version} (dialect ${protocol.dialect.dialect}), chosen from ${describeSource(protocol.source)}${protocol.version === protocol.dialect.version ? "" : ` (${protocol.version})`}`,
    });
    const environment = minimalEnvironment({ ...(options.inheritEnv ? { inherit: options.inheritEnv } : {}), overrides: configuredEnvironment });

    let spawned: SpawnedHarness;
    try {
      spawned = spawnHarness(binaryPath, {
        environment,
        stderrLines: options.stderrLines,
        logger,
        onStderrLine: (line) => {
          logger.debug({}, `harness stderr: ${redactor.redactText(line)}`);
          const skewed = skew.onStderrLine(redactor.redactText(line));
          if (skewed !== undefined) logger.error({ error: skewed.message }, "the harness could not parse a frame of ours (protocol skew)");
        },
      });
    } catch (error) {
      if (ownsStorageDirectory) await rm(storageDirectory, { recursive: true, force: true });
      await recorder?.close();
      throw error;
    }
    const { child, stderr, stderrEnded, exited, spawnError } = spawned;

    const cleanupFailedStart = async (): Promise<void> => {
      if (child.pid !== undefined) {
        signalProcessGroup(child.pid, "SIGKILL");
        await settleWithin(exited, SIGNAL_GRACE_MS);
        untrackProcessGroup(child.pid);
      }
      child.stdout.destroy();
      child.stderr.destroy();
      child.stdin.destroy();
      if (ownsStorageDirectory) await rm(storageDirectory, { recursive: true, force: true }).catch(() => undefined);
      await recorder?.close();
    };

    try {
      const inputConfig: InputConfig = {
        storageDirectory,
        clientInfo,
        ...(options.port ? { port: options.port } : {}),
        ...(options.bindAddress ? { bindAddress: options.bindAddress } : {}),
        ...(Object.keys(configuredEnvironment).length > 0 ? { env: configuredEnvironment } : {}),
      };
      wireTap.record({ channel: "harness", direction: "send", messageKey: "InputConfig", message: inputConfig });
      const handshake = readOutputConfig(child, {
        timeoutMs: options.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS,
        signal: options.signal,
        stderrTail: () => stderr.lines().map((line) => redactor.redactText(line)),
        stderrEnded,
        exited,
      });
      await Promise.race([writeWithBackpressure(child, encodeFrame(encodeInputConfig(inputConfig))), spawnError, handshake]);
      const outputConfig = await Promise.race([handshake, spawnError]);
      redactor.addSecret(outputConfig.apiKey);
      wireTap.record({ channel: "harness", direction: "receive", messageKey: "OutputConfig", message: outputConfig });
      if (!Number.isInteger(outputConfig.port) || outputConfig.port <= 0 || outputConfig.port > 65_535) {
        throw new HarnessError("HANDSHAKE_FAILED", `harness reported an invalid port ${outputConfig.port}`, {
          stderrTail: stderr.lines().map((line) => redactor.redactText(line)),
        });
      }
      // Nothing the client reads follows on stdout, but an unread pipe would block the harness.
      child.stdout.on("data", () => undefined);
      logger.debug({ pid: child.pid, port: outputConfig.port, binaryPath }, "harness started");
      return new HarnessProcess({
        child,
        port: outputConfig.port,
        harnessToken: outputConfig.apiKey,
        storageDirectory,
        ownsStorageDirectory,
        logger,
        redactor,
        wireTap,
        recorder,
        stderr,
        stderrEnded,
        exited,
        configuredEnvironment,
        harnessVersion: binary.version,
        protocol,
        skew,
        onDrift: options.onDrift,
        loggerIdentity: options.logger ?? logger,
      });
    } catch (error) {
      await cleanupFailedStart();
      if (HarnessError.isInstance(error) || options.signal?.aborted) throw error;
      throw new HarnessError("HANDSHAKE_FAILED", `harness handshake failed: ${String(error)}`, {
        cause: error,
        stderrTail: stderr.lines().map((line) => redactor.redactText(line)),
      });
    }
  }

  /** How many conversations are open on this process. */
  get conversationCount(): number {
    return this.#conversations.size;
  }

  /**
   * Unknown fields and enum values this process's harness has sent so far, the frames it sent that
   * did not parse, and its version when newer than every known release, with counts: what a newer
   * harness speaks that this client does not know yet. Also logged once at close.
   */
  driftReport(): DriftReport {
    return this.#drift.snapshot();
  }

  /** The last lines the harness wrote to stderr (at most `stderrLines`, default 40), secrets redacted. */
  stderrTail(): string[] {
    return this.#stderr.lines().map((line) => this.#redactor.redactText(line));
  }

  /**
   * Resolves when the harness is alive and serving: the process has not exited and its WebSocket
   * accepts an upgrade with the process token (closed at once, before any config). Rejects with
   * CONNECTION_CLOSED otherwise, or with the signal's reason. What the pool's health check calls.
   */
  async checkLiveness(options: { signal?: AbortSignal; attemptTimeoutMs?: number } = {}): Promise<void> {
    if (this.hasExited || this.signal.aborted) throw new HarnessError("CONNECTION_CLOSED", "the harness process has exited", { stderrTail: this.stderrTail() });
    await probeHarnessWebSocket({
      port: this.port,
      harnessToken: this.#harnessToken,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      ...(options.attemptTimeoutMs === undefined ? {} : { attemptTimeoutMs: options.attemptTimeoutMs }),
    });
  }

  /** True once the process has exited. */
  get hasExited(): boolean {
    return this.#exit !== undefined;
  }

  /**
   * Opens a conversation: validates the config (CONFIG_INVALID), connects a WebSocket, sends the
   * InitializeConversationEvent and waits for the init response (INIT_FAILED). A failed
   * conversation never harms the process or its other conversations.
   */
  async openConversation(config: ConversationConfig, options: OpenConversationOptions = {}): Promise<Conversation> {
    throwIfAborted(options.signal);
    if (this.signal.aborted) throw this.signal.reason;
    const conversation = await Conversation.open(this.#host(), config, options);
    this.#conversations.add(conversation);
    return conversation;
  }

  /**
   * Shuts down in stages: each conversation closes (session-end handshake when its session-end
   * hook is enabled, then its socket), stdin ends, then the process gets `gracePeriodMs` to exit
   * before SIGTERM and SIGKILL go to its whole process group. Idempotent.
   */
  close(options: HarnessProcessCloseOptions = {}): Promise<void> {
    this.#closing ??= this.#shutdown(options.gracePeriodMs ?? DEFAULT_GRACE_PERIOD_MS);
    return this.#closing;
  }

  async #shutdown(gracePeriodMs: number): Promise<void> {
    try {
      await Promise.all([...this.#conversations].map((conversation) => conversation.close().catch(() => undefined)));
      if (!this.#abortController.signal.aborted) {
        this.#abortController.abort(new HarnessError("CONNECTION_CLOSED", "harness process closed"));
      }
      this.#child.stdin.end();
      if (this.#exit === undefined && !(await settleWithin(this.exited, gracePeriodMs))) {
        this.#logger.warn({ pid: this.pid }, "harness did not exit after stdin EOF; sending SIGTERM");
        signalProcessGroup(this.pid, "SIGTERM");
        if (!(await settleWithin(this.exited, SIGNAL_GRACE_MS))) {
          this.#logger.warn({ pid: this.pid }, "harness ignored SIGTERM; sending SIGKILL");
          signalProcessGroup(this.pid, "SIGKILL");
          await settleWithin(this.exited, SIGNAL_GRACE_MS);
        }
      }
      // Helpers the harness started (MCP servers, commands) share its group; they go with it.
      signalProcessGroup(this.pid, "SIGKILL");
      await settleWithin(this.#stderrEnded, STDERR_SETTLE_MS);
    } finally {
      this.#release();
      if (this.#ownsStorageDirectory) await rm(this.storageDirectory, { recursive: true, force: true }).catch(() => undefined);
      this.#logDrift();
      await this.#recorder?.close();
      this.#resolveClosed();
    }
  }

  #release(): void {
    untrackProcessGroup(this.pid);
    this.#child.stdin.destroy();
    this.#child.stdout.destroy();
    this.#child.stderr.destroy();
  }

  #logDrift(): void {
    if (this.#drift.isEmpty) return;
    this.#logger.warn({
      drift: this.#drift.snapshot(),
    }, "harness protocol drift: the harness sent fields or enum values this client does not know");
  }

  async #onExit(exit: HarnessProcessExit): Promise<void> {
    this.#exit = exit;
    if (this.#closing !== undefined) return;
    // Unexpected death: let the last stderr lines arrive so the error can explain it.
    await settleWithin(this.#stderrEnded, STDERR_SETTLE_MS);
    const tail = this.stderrTail();
    this.#logger.error({ pid: this.pid, ...exit, stderrTail: tail }, "harness process exited unexpectedly");
    const skewed = this.#skew.lastError;
    const exitText = `(code ${String(exit.code)}, signal ${String(exit.signal)})`;
    this.#abortController.abort(
      // A harness that could not parse what we sent exits (an init it cannot read): that is the cause to report.
      skewed !== undefined
        ? new HarnessError("PROTOCOL_SKEW", `${skewed.message}; the harness then exited ${exitText}`, { stderrTail: tail, ...(skewed.subject === undefined ? {} : { subject: skewed.subject }) })
        : new HarnessError("CONNECTION_CLOSED", `harness process exited unexpectedly ${exitText}${tail.length > 0 ? `:\n${tail.join("\n")}` : ""}`, { stderrTail: tail }),
    );
    void this.close();
  }

  #host(): ConversationHost {
    return {
      port: this.port,
      harnessToken: this.#harnessToken,
      logger: this.#logger,
      redactor: this.#redactor,
      wireTap: this.#wireTap,
      drift: this.#drift,
      dialect: this.protocol.dialect,
      noteSent: (text, onSkew) => this.#skew.noteSent(text, onSkew),
      signal: this.signal,
      exited: this.exited,
      configuredEnvironment: this.#configuredEnvironment,
      stderrTail: () => this.stderrTail(),
      forgetConversation: (conversation) => {
        this.#conversations.delete(conversation as Conversation);
      },
    };
  }
}
