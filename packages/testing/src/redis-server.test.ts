import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { isProcessAlive } from "./leaks.js";
import { redisSkipReason, servicesRequired, startRedisServer } from "./redis-server.js";

const saved = { CI: process.env.CI, AG_UI_REQUIRE_SERVICES: process.env.AG_UI_REQUIRE_SERVICES };
afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

function ping(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port }, () => socket.write("PING\r\n"));
    socket.setEncoding("utf8").once("data", (reply: string) => {
      socket.destroy();
      resolve(reply.trim());
    });
    socket.once("error", reject);
  });
}

describe("servicesRequired", () => {
  it("is on in CI (CI, or AG_UI_REQUIRE_SERVICES=1 as .ci/run sets) and off elsewhere", () => {
    delete process.env.CI;
    delete process.env.AG_UI_REQUIRE_SERVICES;
    expect(servicesRequired()).toBe(false);
    process.env.AG_UI_REQUIRE_SERVICES = "1";
    expect(servicesRequired()).toBe(true);
    delete process.env.AG_UI_REQUIRE_SERVICES;
    process.env.CI = "true";
    expect(servicesRequired()).toBe(true);
  });
});

const skipReason = redisSkipReason();
describe.skipIf(skipReason !== undefined)(`startRedisServer${skipReason === undefined ? "" : `: skipped, ${skipReason}`}`, () => {
  it("starts a real redis-server on a free loopback port and stops it, leaving no process", async () => {
    const server = await startRedisServer();
    expect(server.url).toBe(`redis://127.0.0.1:${server.port}`);
    expect(await ping(server.port)).toBe("+PONG");
    await server.stop();
    await server.stop();
    expect(isProcessAlive(server.pid)).toBe(false);
  });
});
