import { HarnessProcess, type Conversation, type ConversationConfig } from "@ag-ui-antigravity/harness";
import { emulatorBinPath, expectNoChildProcesses } from "@ag-ui-antigravity/testing";
import { HitlBridge, type HitlBridgeOptions, type RunItem, type TurnStarter } from "../../src/index.js";
import { countHandles, expectNoHandlesBeyond, type HandleCounts } from "./handle-baseline.js";

export const changeColor = { name: "change_color", description: "Changes the page colour", parameters: { type: "object", properties: { color: { type: "string" } }, required: ["color"] } };

export interface EmulatorSession {
  bridge: HitlBridge;
  conversation: Conversation;
  /** What the agent's run loop passes to `beginRun`: a turn is one `conversation.send`. */
  startTurn: TurnStarter<string>;
}

/**
 * One emulator process and one bridge per session, the way the agent composes them; `end()` closes
 * everything and checks that no child process, socket, pipe or timer outlived the test.
 */
export class EmulatorSessions {
  readonly #processes: HarnessProcess[] = [];
  readonly #bridges: HitlBridge[] = [];
  #baseline: HandleCounts = new Map();

  begin(): void {
    this.#baseline = countHandles();
  }

  async open(options: HitlBridgeOptions = {}, config: Partial<ConversationConfig> = {}): Promise<EmulatorSession> {
    const harness = await HarnessProcess.start({ binaryPath: emulatorBinPath, handshakeTimeoutMs: 30_000, env: { ANTIGRAVITY_EMULATOR_TOKEN_DELAY_MS: "1" } });
    this.#processes.push(harness);
    const bridge = new HitlBridge({ settleMs: 100, ...options });
    this.#bridges.push(bridge);
    const pieces = bridge.harnessPieces([changeColor]);
    const conversation = await harness.openConversation({
      model: "emulator:demo",
      workspaces: ["/tmp"],
      builtinTools: ["list_directory", "ask_question", "finish"],
      turnTimeoutMs: false,
      customTools: pieces.customTools,
      hooks: pieces.hooks,
      ...config,
    });
    const startTurn: TurnStarter<string> = (text, { preamble, signal }) => conversation.send(preamble === undefined ? text : `${preamble}\n\n${text}`, { signal });
    return { bridge, conversation, startTurn };
  }

  async end(): Promise<void> {
    // A bridge's close resolves once its halted turn drained, which the processes closing ends.
    const bridgesClosed = this.#bridges.splice(0).map((bridge) => bridge.close());
    await Promise.all(this.#processes.splice(0).map((harness) => harness.close({ gracePeriodMs: 2_000 })));
    await Promise.all(bridgesClosed);
    await expectNoChildProcesses();
    await expectNoHandlesBeyond(this.#baseline);
  }
}

/** The model's text in these items, deltas joined. */
export function modelText(items: RunItem[]): string {
  return items.flatMap((item) => (item.type === "step" && item.step.kind === "text" && item.step.source === "model" ? [item.step.textDelta] : [])).join("");
}
