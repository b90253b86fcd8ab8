import { HttpAgent } from "@ag-ui/client";
import type { RunAgentInput } from "@ag-ui/core";
import { AGUI_MEDIA_TYPE } from "@ag-ui/encoder";
import { describe, expect, it } from "vitest";
import { ScriptedAgent, echoScript, slowEchoScript } from "./helpers/fake-agents.js";
import { postJson, runInputBody, serveAgents, closeServersAfterEach } from "./helpers/server.js";

closeServersAfterEach();

/** HttpAgent always asks for SSE; this one asks for protobuf, so the real client parses the frames. */
class ProtobufHttpAgent extends HttpAgent {
  protected override requestInit(input: RunAgentInput): RequestInit {
    const init = super.requestInit(input);
    return { ...init, headers: { ...(init.headers as Record<string, string>), Accept: AGUI_MEDIA_TYPE } };
  }
}

describe("protobuf transport", () => {
  it("answers Accept: application/vnd.ag-ui.event+proto with length-prefixed protobuf frames", async () => {
    const server = await serveAgents(new ScriptedAgent(echoScript));
    const response = await postJson(server.url, runInputBody(), { Accept: AGUI_MEDIA_TYPE });

    expect(AGUI_MEDIA_TYPE).toBe("application/vnd.ag-ui.event+proto");
    expect(response.headers.get("content-type")).toBe(AGUI_MEDIA_TYPE);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const view = new DataView(bytes.buffer);
    let offset = 0;
    let frames = 0;
    while (offset < bytes.length) {
      offset += 4 + view.getUint32(offset, false);
      frames += 1;
    }
    expect(offset).toBe(bytes.length);
    expect(frames).toBe(5);
  });

  it("answers a wildcard or missing Accept (curl's default) with SSE, not protobuf", async () => {
    const server = await serveAgents(new ScriptedAgent(echoScript));
    for (const accept of ["*/*", "application/*", ""]) {
      const response = await postJson(server.url, runInputBody(), accept === "" ? {} : { Accept: accept });
      expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
      expect(await response.text()).toContain("data: ");
    }
  });

  it("is parsed by the real client's protobuf reader, with no keep-alive text mixed in", async () => {
    // Events 5 ms apart with a 1 ms keep-alive interval: an SSE stream would carry comments here.
    const server = await serveAgents(new ScriptedAgent(slowEchoScript), { keepAliveIntervalMs: 1 });
    const client = new ProtobufHttpAgent({ url: server.url });
    client.addMessage({ id: "u1", role: "user", content: "binary please" });

    const result = await client.runAgent();
    expect(result.newMessages[0]).toMatchObject({ role: "assistant", content: "echo: binary please" });
  });
});
