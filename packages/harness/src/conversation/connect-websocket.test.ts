import { shieldLogger } from "@ag-ui-antigravity/foundation";
import { createServer, type AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { connectHarnessWebSocket } from "./connect-websocket.js";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const logger = shieldLogger(undefined);

describe("connectHarnessWebSocket", () => {
  it("retries until the harness listens, presenting the token", async () => {
    const port = await freePort();
    let server: WebSocketServer | undefined;
    const headers: unknown[] = [];
    const late = setTimeout(() => {
      server = new WebSocketServer({ host: "127.0.0.1", port });
      server.on("connection", (_socket, request) => headers.push(request.headers["x-goog-api-key"]));
    }, 250);
    try {
      const socket = await connectHarnessWebSocket({ port, harnessToken: "token-123456", logger, stderrTail: () => [] });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(headers).toEqual(["token-123456"]);
      socket.terminate();
      await new Promise((resolve) => socket.once("close", resolve));
    } finally {
      clearTimeout(late);
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    }
  });

  it("gives up after its attempts with CONNECTION_CLOSED and the stderr tail", async () => {
    const port = await freePort();
    const error = await connectHarnessWebSocket({ port, harnessToken: "t", logger, stderrTail: () => ["bind failed"], attempts: 2, baseDelayMs: 10 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: "CONNECTION_CLOSED", stderrTail: ["bind failed"] });
  });

  it("stops retrying when aborted", async () => {
    const port = await freePort();
    const controller = new AbortController();
    const connecting = connectHarnessWebSocket({ port, harnessToken: "t", logger, stderrTail: () => [], signal: controller.signal, baseDelayMs: 1_000 });
    setTimeout(() => controller.abort(new Error("stop")), 50);
    await expect(connecting).rejects.toThrow("stop");
  });
});
