// Who may reach what: thread ids and client-sent options that try to name a path outside the
// workspace root, and principals reaching for each other's threads. The plain 403 for another
// principal's run is in packages/express/test/e2e/faults.e2e.test.ts; these go further.
import { randomUUID } from "node:crypto";
import { readdirSync, realpathSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { EventType, type Tool } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import { postRun, reliabilityModel, ThreadClient, userMessage, useStacks, waitFor } from "../support/stack.js";

const { startStack, scratchDir } = useStacks();

const hostileThreadIds = [
  "../../../../etc",
  "..",
  "/",
  "/etc/passwd",
  "..\\..\\windows",
  "a/../../b",
  "%2e%2e%2f%2e%2e%2fetc",
  "thread\u0000../../etc",
  "~root",
  ".",
  "x".repeat(5_000),
  "\u202e\u2066../../évil",
];

describe("path traversal", () => {
  it("thread ids that look like paths each get their own directory inside the workspace root, and nothing is written outside it", async () => {
    const sandbox = realpathSync(scratchDir("reliability-traversal-"));
    const workspaceRoot = join(sandbox, "workspaces");
    const stack = await startStack({ chat: { model: reliabilityModel, workspaceRoot } });
    const workspaces = new Set<string>();
    for (const threadId of hostileThreadIds) {
      const client = new ThreadClient(`${stack.url}/chat`, { threadId });
      // A client cannot pick the directory either: workspace-like options in the input are ignored.
      client.agent.setState({ workspace: "/etc", workspaceRoot: "/" });
      await client.say("where", { forwardedProps: { workspace: "/etc", workspaces: ["/"], workspaceRoot: "/", cwd: "../../..", saveDir: "/tmp" } });
      expect(client.runError, threadId.slice(0, 40)).toBeUndefined();
      const workspace = client.lastAssistantText().replace(/^workspace=/, "");
      const fromRoot = relative(workspaceRoot, workspace);
      expect(fromRoot.startsWith("..") || fromRoot.includes(sep) || fromRoot === "", `${JSON.stringify(threadId.slice(0, 40))} → ${workspace}`).toBe(false);
      workspaces.add(workspace);
    }
    // One directory per thread, all direct children of the root, and nothing else in the sandbox.
    expect(workspaces.size).toBe(hostileThreadIds.length);
    expect(readdirSync(workspaceRoot).sort()).toEqual([...workspaces].map((workspace) => relative(workspaceRoot, workspace)).sort());
    expect(readdirSync(sandbox)).toEqual(["workspaces"]);
  });
});

const pickColor: Tool = {
  name: "pick_color",
  description: "Asks the user to pick a colour in the UI",
  parameters: { type: "object", properties: { question: { type: "string" } }, required: ["question"] },
};

describe("threads bound to principals", () => {
  it("another principal can neither run, nor answer the parked tool of, nor learn anything from someone else's thread; the owner's answer still resumes it", async () => {
    const stack = await startStack(
      { chat: { model: reliabilityModel } },
      { authorize: (request) => { const user = request.header("x-user"); return user === undefined ? null : { id: user }; } },
    );
    const threadId = randomUUID();
    const alice = new ThreadClient(`${stack.url}/chat`, { threadId, headers: { "x-user": "alice" } });
    await alice.say("pick a colour", { tools: [pickColor] });
    const call = alice.events.find((event) => event.type === EventType.TOOL_CALL_START) as { toolCallId: string } | undefined;
    expect(call).toBeDefined();
    await waitFor(() => stack!.agents.chat!.stats().sessions.parkedSessions === 1, { what: "the park" });

    // Mallory answers Alice's parked tool, runs on her thread, and tries without credentials.
    const answer = { id: randomUUID(), role: "tool" as const, toolCallId: call!.toolCallId, content: "mallory's colour" };
    const attempts = [
      await postRun(`${stack.url}/chat`, { threadId, messages: [...alice.agent.messages, answer], tools: [pickColor] }, { "x-user": "mallory" }),
      await postRun(`${stack.url}/chat`, { threadId, messages: [userMessage("what did alice say?")] }, { "x-user": "mallory" }),
      await postRun(`${stack.url}/chat`, { threadId, messages: [userMessage("hello")] }),
    ];
    expect(attempts.map((response) => response.status)).toEqual([403, 403, 401]);
    const bodies = await Promise.all(attempts.map((response) => response.text()));
    for (const body of bodies) {
      expect(body).not.toContain("alice");
      expect(body).not.toContain("pick");
      expect(body).not.toContain(threadId);
    }
    // Mallory is refused Alice's thread only; a thread of her own works.
    const unknown = await postRun(`${stack.url}/chat`, { threadId: randomUUID(), messages: [userMessage("x")] }, { "x-user": "mallory" });
    expect(unknown.status).toBe(200);
    await unknown.text();
    expect(stack.agents.chat!.stats().sessions.parkedSessions).toBe(1);

    // Alice's own answer still resumes her turn.
    alice.agent.addMessage({ ...answer, id: randomUUID(), content: "teal" });
    await alice.run({ tools: [pickColor] });
    expect(alice.runError).toBeUndefined();
    expect(alice.lastAssistantText()).toBe("You picked teal.");
  });
});
