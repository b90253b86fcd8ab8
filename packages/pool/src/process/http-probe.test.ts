import { createServer, type Server } from "node:http";
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { probeHttp } from "./http-probe.js";

const servers: (Server | TcpServer)[] = [];
const sockets: Socket[] = [];

function listen(server: Server | TcpServer): Promise<number> {
  servers.push(server);
  return new Promise((resolve) => server.listen(0, "localhost", () => resolve((server.address() as AddressInfo).port)));
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

describe("probeHttp", () => {
  it("passes on any HTTP answer, a refusal included", async () => {
    const port = await listen(createServer((_request, response) => response.writeHead(426).end("Upgrade Required")));
    await expect(probeHttp(port, { signal: AbortSignal.timeout(2_000) })).resolves.toBeUndefined();
  });

  it("fails when nothing listens", async () => {
    const port = await listen(createServer());
    await new Promise((resolve) => servers.pop()!.close(resolve));
    await expect(probeHttp(port, { signal: AbortSignal.timeout(2_000) })).rejects.toThrow();
  });

  it("fails at its signal when the peer accepts the connection but never answers", async () => {
    const port = await listen(createTcpServer((socket) => sockets.push(socket)));
    const controller = new AbortController();
    const pending = probeHttp(port, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("probe timed out")), 100).unref();
    await expect(pending).rejects.toThrow(/probe timed out/);
  });
});
