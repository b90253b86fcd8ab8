// Type-checked copies of the README and JSDoc examples of the protocol entry and the step
// normalizer: `pnpm typecheck` fails when an example stops compiling.
import { StepNormalizer } from "./index.js";
import {
  decodeOutputConfig,
  DriftRegistry,
  encodeFrame,
  encodeInputConfig,
  FrameReader,
  outputEventKind,
  parseHarnessConfig,
  parseInputEvent,
  parseOutputEvent,
  serializeMessage,
  toSafeInteger,
  usageOf,
  type InputEvent,
  type OutputConfig,
} from "./protocol.js";

export function handshakeExample(stdoutChunks: readonly Uint8Array[]): { stdinFrame: Uint8Array; outputConfigs: OutputConfig[] } {
  const stdinFrame = encodeFrame(encodeInputConfig({ storageDirectory: "/tmp/agent", clientInfo: { language: "typescript" } }));
  const reader = new FrameReader({ maxFrameBytes: 1024 });
  const outputConfigs: OutputConfig[] = [];
  for (const chunk of stdoutChunks) {
    for (const payload of reader.push(chunk)) outputConfigs.push(decodeOutputConfig(payload));
  }
  reader.end();
  return { stdinFrame, outputConfigs };
}

export function parsingExample(frameText: string): { text: string; promptTokens: number; outgoing: string } {
  const drift = new DriftRegistry();
  const event = parseOutputEvent(frameText, { drift });
  const steps = new StepNormalizer();
  let text = "";
  if (outputEventKind(event) === "stepUpdate" && event.stepUpdate !== undefined) {
    const step = steps.normalize(event.stepUpdate, { mainTrajectoryId: "main", event });
    if (step.kind === "text" && step.isMainTrajectory) text += step.textDelta;
  }
  const promptTokens = toSafeInteger(usageOf(event)?.promptTokenCount);
  const input = parseInputEvent('{"tool_confirmation": {"trajectory_id": "t", "step_index": 0, "accepted": true}}');
  const config = parseHarnessConfig({ cascadeId: "", models: [{ name: "gemini-2.5-flash", types: ["MODEL_TYPE_TEXT"] }] });
  const outgoing = serializeMessage({ userInput: config.cascadeId ?? "" } satisfies InputEvent) + serializeMessage(input);
  return { text, promptTokens, outgoing };
}
