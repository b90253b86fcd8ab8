import { mkdtemp, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseRecording } from "../../src/protocol.js";
import { EmulatorFixture } from "../support/emulator.js";
import { driveRecording, recordingProtocol } from "../support/replay-driver.js";

const fixture = new EmulatorFixture();
let directory: string;
beforeEach(async () => {
  fixture.begin();
  directory = await mkdtemp(join(tmpdir(), "wire-replay-"));
});
afterEach(async () => {
  await fixture.end();
  await rm(directory, { recursive: true, force: true });
});

/** Records one emulator session: a plain turn, a custom tool round trip and a question. */
async function recordSession(path: string, harnessVersion?: string): Promise<void> {
  const harness = await fixture.start({ record: path, env: { GEMINI_API_KEY: "AIza-recorded-secret-123" }, ...(harnessVersion === undefined ? {} : { harnessVersion }) });
  const conversation = await harness.openConversation({
    model: "emulator:demo",
    workspaces: ["/tmp"],
    customTools: [{ name: "get_time", description: "Tells the time.", parameters: { type: "object", properties: {} }, handler: () => ({ now: "12:00" }) }],
    hooks: { onQuestions: ({ questions }) => ({ answers: questions.map(() => ({ selected: [1] })) }) },
    builtinTools: ["ask_question", "list_directory"],
  });
  expect((await conversation.send("hello").result).text).toContain("hello");
  expect((await conversation.send("What time is it? use get_time").result).text).toContain("12:00");
  await conversation.send("Please ask me which colour I like").result;
  await harness.close();
}

describe("wire recording and replay", () => {
  it("records every frame with its header and the client's config summary, secrets blanked", async () => {
    const path = join(directory, "session.jsonl");
    await recordSession(path);
    const text = await readFile(path, "utf8");
    expect(text).not.toContain("AIza-recorded-secret-123");
    const recording = parseRecording(text);
    expect(recording.header.harness.version).toContain("harness-emulator");
    expect(recording.header.harness.protocol).toBe("0.1.21");
    expect(recording.header.client.language).toBe("typescript");
    expect(recording.frames.slice(0, 2).map((frame) => frame.messageKey)).toEqual(["InputConfig", "OutputConfig"]);
    expect(recording.conversations[0]?.config["hooks"]).toEqual(["onQuestions"]);
    const keys = new Set(recording.frames.map((frame) => `${frame.direction}:${frame.messageKey}`));
    for (const key of ["send:config", "receive:initializeConversationResponse", "send:userInput", "receive:stepUpdate", "receive:toolCall", "send:toolResponse", "send:questionResponse"]) {
      expect(keys).toContain(key);
    }
    const times = recording.frames.map((frame) => frame.atMs);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it("replays a recording made from an emulator session, green", async () => {
    const path = join(directory, "session.jsonl");
    await recordSession(path);
    const harness = await fixture.start({ harnessVersion: recordingProtocol(path), env: { ANTIGRAVITY_EMULATOR_REPLAY: path } });
    // A liveness probe (the pool's health check) says nothing, so it plays no part of the recording.
    await harness.checkLiveness();
    await driveRecording(harness, path);
  });

  it("0.1.10: matches a recorded one-text-part complexUserInput with the plain userInput the client now sends", async () => {
    const path = join(directory, "session.jsonl");
    await recordSession(path, "0.1.10");
    const lines = (await readFile(path, "utf8")).split("\n");
    const index = lines.findIndex((line) => line.includes('"messageKey":"userInput"'));
    const frame = JSON.parse(lines[index] ?? "{}") as { messageKey: string; message: Record<string, unknown> };
    const text = frame.message["userInput"];
    expect(typeof text).toBe("string");
    frame.messageKey = "complexUserInput";
    frame.message = { complexUserInput: { parts: [{ text }] } };
    lines[index] = JSON.stringify(frame);
    const older = join(directory, "older-client.jsonl");
    await writeFile(older, lines.join("\n"));
    const harness = await fixture.start({ harnessVersion: "0.1.10", env: { ANTIGRAVITY_EMULATOR_REPLAY: older } });
    await driveRecording(harness, older);
  });

  it("fails at the first divergence, naming the frame and the field", async () => {
    const path = join(directory, "session.jsonl");
    await recordSession(path);
    const lines = (await readFile(path, "utf8")).split("\n");
    const index = lines.findIndex((line) => line.includes('"messageKey":"config"'));
    const frame = JSON.parse(lines[index] ?? "{}") as { seq: number; message: { config: { tools: { description: string }[] } } };
    const tool = frame.message.config.tools[0];
    if (tool === undefined) throw new Error("the recorded config has no tool");
    tool.description = "Tells the weather.";
    lines[index] = JSON.stringify(frame);
    const altered = join(directory, "altered.jsonl");
    await writeFile(altered, lines.join("\n"));
    const harness = await fixture.start({ env: { ANTIGRAVITY_EMULATOR_REPLAY: altered } });
    const failure = await driveRecording(harness, altered).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(String(failure)).toContain(`frame ${frame.seq}`);
    expect(String(failure)).toContain("config.tools.0.description");
    expect(String(failure)).toContain('expected "Tells the weather."');
  });

  it("a recording of a config full of secrets contains none of them, in a new private file", async () => {
    const secrets = {
      mcpEnv: "plain-env-value-not-named-like-a-key",
      mcpHeader: "header-value-of-an-mcp-server",
      endpointHeader: "x-api-key-of-the-endpoint-123",
      urlKey: "key-in-the-endpoint-url-456",
      urlPassword: "password-in-a-server-url-789",
      apiKey: "AIza-recorded-secret-config-key",
    };
    const path = join(directory, "secrets.jsonl");
    const harness = await fixture.start({ record: path });
    const conversation = await harness.openConversation({
      model: "emulator:demo",
      apiKey: secrets.apiKey,
      endpoint: { type: "gemini", baseUrl: `https://generativelanguage.example/v1?alt=sse&key=${secrets.urlKey}`, headers: { "X-Api-Key": secrets.endpointHeader } },
      mcpServers: [
        { name: "local", command: "/bin/false", env: { DATABASE: secrets.mcpEnv } },
        { name: "remote", url: `https://user:${secrets.urlPassword}@mcp.example/mcp?token=${secrets.urlKey}`, headers: { Referer: secrets.mcpHeader } },
      ],
      policies: [{ tool: "*", decision: "deny" }],
    });
    await conversation.close();
    await harness.close();
    const text = await readFile(path, "utf8");
    for (const [name, secret] of Object.entries(secrets)) expect(text, name).not.toContain(secret);
    // What was configured stays readable: the names, not the values.
    expect(text).toContain('"DATABASE":"[REDACTED]"');
    expect(text).toContain('"X-Api-Key":"[REDACTED]"');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  it("never writes a recording over an existing file or through a symbolic link at its path", async () => {
    const existing = join(directory, "existing.jsonl");
    await writeFile(existing, "kept\n");
    const target = join(directory, "target.txt");
    await writeFile(target, "target\n");
    const link = join(directory, "link.jsonl");
    await symlink(target, link);
    const warnings: string[] = [];
    const logger = { warn: (_fields: Record<string, unknown>, message?: string) => void warnings.push(message ?? "") };
    for (const path of [existing, link]) {
      const harness = await fixture.start({ record: path, logger });
      await (await harness.openConversation({ model: "emulator:demo" })).send("hello").result;
      await harness.close();
    }
    expect(await readFile(existing, "utf8")).toBe("kept\n");
    expect(await readFile(target, "utf8")).toBe("target\n");
    expect(warnings.filter((warning) => warning.startsWith("the wire recording was not started"))).toHaveLength(2);
  });

  it("records into a directory, one file per process, when the target ends in /", async () => {
    const harness = await fixture.start({ record: `${directory}/sessions/` });
    await harness.close();
    const { readdir } = await import("node:fs/promises");
    const files = await readdir(join(directory, "sessions"));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^session-.*\.jsonl$/);
  });

  it("refuses to start on a recording that does not parse", async () => {
    const path = join(directory, "broken.jsonl");
    await writeFile(path, '{"type":"frame"}\n');
    await expect(fixture.start({ env: { ANTIGRAVITY_EMULATOR_REPLAY: path } })).rejects.toThrow(/recording line 1/);
  });
});
