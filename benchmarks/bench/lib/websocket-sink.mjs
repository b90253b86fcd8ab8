// The floor of a burst's CPU: a WebSocket client of its own emulator conversation that receives a
// turn's frames and does nothing with them but find the final idle. Any AG-UI server of the harness
// pays at least this per frame; what it spends beyond is its own parsing, translating and writing.
import { openEmulatorConversation } from "./emulator-conversation.mjs";

const FINAL_IDLE = Buffer.from('"STATE_FULLY_IDLE"');
/** A trajectory state frame is about 150 bytes; the step frames that repeat the reply are not searched. */
const MAX_STATE_FRAME_BYTES = 512;

/** Opens the sink's conversation; `turn(text)` sends a prompt and resolves with the frames and this process's CPU (ms) until the final idle. */
export async function startWebSocketSink({ model }) {
  const conversation = await openEmulatorConversation({ model });
  const { socket } = conversation;
  const turn = (text) =>
    new Promise((resolve) => {
      let frames = 0;
      const before = process.cpuUsage();
      const onMessage = (data) => {
        frames += 1;
        if (data.length > MAX_STATE_FRAME_BYTES || !data.includes(FINAL_IDLE)) return;
        const used = process.cpuUsage(before);
        socket.off("message", onMessage);
        resolve({ frames, cpuMs: (used.user + used.system) / 1000 });
      };
      socket.on("message", onMessage);
      socket.send(JSON.stringify({ userInput: { parts: [{ text }] } }));
    });
  return { turn, close: conversation.close };
}
