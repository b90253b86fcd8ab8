import { describe, expect, it } from "vitest";
import { listenOnEphemeralPort } from "./http-server.js";
import { expectNoActiveHandles } from "./leaks.js";

describe("listenOnEphemeralPort", () => {
  it("serves on a fresh port and closes even with a response still open", async () => {
    const server = await listenOnEphemeralPort((_request, response) => {
      response.writeHead(200, { "Content-Type": "text/plain" });
      response.write("open");
      // The response is never ended: close() must still finish.
    });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(server.url);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("open");
    await server.close();
    await expect(reader.read()).rejects.toThrow();
    // The forks pool talks to its worker over pipes; those belong to Vitest, not to the server.
    await expectNoActiveHandles({ allow: ["PipeWrap"] });
  });
});
