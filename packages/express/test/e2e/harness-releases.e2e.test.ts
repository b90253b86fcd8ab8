import { describe, expect, it } from "vitest";
import { ThreadClient, useE2EServers, writeNote } from "./e2e-harness.js";

/*
 * The adapter over HTTP against each harness release the emulator plays (docs/protocol.md,
 * "Versions"): the turn input and a pre-tool edit change shape between them, and the emulator refuses
 * what its release's parser would, so a frame the client spells for the wrong release stalls the test.
 */
const startServer = useE2EServers();

describe.each(["0.1.10", "0.1.14", "0.1.18", "0.1.21"])("harness %s", (harnessVersion) => {
  it("answers a text turn, and an approval with edited arguments reaches the tool", async () => {
    const calls: unknown[] = [];
    const server = await startServer({
      chat: { harnessVersion },
      approval: { harnessVersion, ...writeNote(calls) },
    });
    const chat = new ThreadClient(`${server.url}/chat`);
    await chat.say("hello there");
    expect(chat.lastAssistantText()).toContain("hello there");

    const client = new ThreadClient(`${server.url}/approval`);
    await client.say("call write_note with text: hello");
    await client.run({ resume: [{ interruptId: client.interrupts[0]!.id, status: "resolved", payload: { approved: true, editedArgs: { text: "edited by the user" } } }] });
    expect(calls).toEqual([{ text: "edited by the user" }]);
    expect(client.lastAssistantText()).toContain("edited by the user");
  });
});
