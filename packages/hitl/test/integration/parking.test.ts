import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { changeColor, EmulatorSessions, modelText } from "../support/emulator-session.js";
import { driveRun, runInput, verify } from "../support/mini-agent.js";

/** How long the client stays away from a parked turn; raise it for a soak (HITL_TEST_PARK_MS=600000). */
const PARK_MS = Number(process.env.HITL_TEST_PARK_MS ?? 30_000);

const sessions = new EmulatorSessions();
beforeEach(() => sessions.begin());
afterEach(() => sessions.end());

describe("a turn parked across runs", () => {
  it(
    `parks a frontend tool, survives the client detaching, and resumes ${PARK_MS} ms later from a ToolMessage`,
    async () => {
      const { bridge, startTurn } = await sessions.open();
      const detach = new AbortController();
      const first = await driveRun(bridge, runInput({ tools: [changeColor] }), {
        newInput: "please use change_color",
        startTurn,
        signal: detach.signal,
        onItem: (item) => item.type === "tool-call" && detach.abort(),
      });
      await verify(first.events);
      const call = first.items.find((item) => item.type === "tool-call");
      expect(call).toMatchObject({ type: "tool-call", source: "frontend", toolName: "change_color" });
      expect(first.conclusion).toMatchObject({ type: "pending-tools" });
      const toolCallId = call?.type === "tool-call" ? call.toolCallId : "";
      await new Promise((resolve) => setTimeout(resolve, PARK_MS));
      expect({ parked: bridge.parkedIds, turnAlive: bridge.hasTurn }).toEqual({ parked: [toolCallId], turnAlive: true });
      const second = await driveRun(bridge, runInput({ tools: [changeColor], messages: [{ id: "tool-1", role: "tool", toolCallId, content: "the page is teal now" }] }), { startTurn });
      await verify(second.events);
      expect(modelText(second.items)).toContain("I called change_color. It returned:");
      expect(modelText(second.items)).toContain("the page is teal now");
      expect(second.conclusion).toEqual({ type: "completed" });
    },
    PARK_MS + 60_000,
  );
});
