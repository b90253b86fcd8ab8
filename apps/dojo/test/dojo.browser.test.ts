// The dojo in a real browser against the real demo server (apps/server, built, on the harness
// emulator with its demo scenarios): one test per feature page. Each test types a message, watches
// the reply stream in, completes the human step where there is one, and checks the final page state
// and what the page sent over HTTP. The server is started once for the file and stopped after it,
// and the suite fails if it, or a harness process it started, is left running.
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import type { RunAgentInput } from "@ag-ui/core";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { featureById, features, type Feature, type FeatureId } from "../src/features/featureCatalog.js";
import { chromiumPath, launchChromium } from "./support/browser.js";
import { descendantPids, isProcessAlive } from "@ag-ui-antigravity/testing";
import { dojoDistDirectory, startServer, type RunningServer } from "./support/startServer.js";

/** A POST read whole (an SSE stream ends with its run), from `localAddress` when given. */
function postSse(url: string, body: string, localAddress: string | undefined): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = { "content-type": "application/json", accept: "text/event-stream", "content-length": String(Buffer.byteLength(body)) };
    const outgoing = request(url, { method: "POST", headers, ...(localAddress === undefined ? {} : { localAddress }) }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, text }));
      response.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

const failureScreenshots = fileURLToPath(new URL("../test-results/", import.meta.url));
const readmeScreenshots = fileURLToPath(new URL("../../../docs/screenshots/", import.meta.url));

const suiteName =
  chromiumPath === undefined
    ? "dojo browser tests SKIPPED: no Chromium binary at /usr/bin/chromium (apt-get install chromium, or set CHROMIUM_PATH)"
    : "dojo in Chromium against apps/server";
if (chromiumPath === undefined) console.warn(`\n*** ${suiteName} ***\n`);

/** How long one page state may take to appear: generous, for a loaded 2-core machine. */
const stepTimeoutMs = 20_000;

describe.skipIf(chromiumPath === undefined)(suiteName, () => {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    if (!existsSync(`${dojoDistDirectory}index.html`)) throw new Error(`${dojoDistDirectory}index.html is missing: run \`pnpm build\` first`);
    const [started, launched] = await Promise.allSettled([startServer(), launchChromium(chromiumPath as string)]);
    if (started.status === "fulfilled") server = started.value;
    if (launched.status === "fulfilled") browser = launched.value;
    if (started.status === "rejected") throw started.reason;
    if (launched.status === "rejected") throw launched.reason;
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    // Rejects if the server did not exit cleanly within its 10 s or left a harness process behind.
    await server?.close();
    // Nothing this suite started (Chromium, the server, its harnesses) may outlive it.
    const deadline = Date.now() + 5_000;
    let leftovers = descendantPids(process.pid);
    while (leftovers.length > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      leftovers = leftovers.filter(isProcessAlive);
    }
    expect(leftovers, "processes started by the browser suite are still running").toEqual([]);
  }, 30_000);

  /** What the page POSTed to the feature routes, in order. */
  type SentRuns = RunAgentInput[];

  /**
   * A fresh browser context per test (so a fresh localStorage and thread), with the page's run
   * requests recorded (each checked to be a valid RunAgentInput) and a full-page screenshot saved
   * under test-results/ when the test fails.
   */
  async function withPage(name: string, body: (page: Page, sent: SentRuns) => Promise<void>): Promise<void> {
    const context = await (browser as Browser).newContext({ viewport: { width: 1280, height: 860 } });
    // Shorter than the test timeout, so a missing element fails here, with a screenshot.
    context.setDefaultTimeout(stepTimeoutMs);
    const page = await context.newPage();
    const sent: SentRuns = [];
    const invalid: string[] = [];
    const pageErrors: string[] = [];
    page.on("request", (request) => {
      if (request.method() !== "POST") return;
      const body: unknown = JSON.parse(request.postData() ?? "null");
      const parsed = RunAgentInputSchema.safeParse(body);
      if (!parsed.success) invalid.push(`${request.url()}: ${parsed.error.message}`);
      sent.push(body as RunAgentInput);
    });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    try {
      await body(page, sent);
      expect(invalid).toEqual([]);
      expect(pageErrors).toEqual([]);
    } catch (error) {
      mkdirSync(failureScreenshots, { recursive: true });
      await page.screenshot({ path: `${failureScreenshots}${name}.png`, fullPage: true }).catch(() => undefined);
      // The server's side of the story: its JSON log lines, up to the failure.
      writeFileSync(`${failureScreenshots}${name}.server.log`, server?.output().slice(-100_000) ?? "");
      throw error;
    } finally {
      await context.close();
    }
  }

  async function openFeature(page: Page, feature: string): Promise<void> {
    await page.goto(`${server?.baseUrl}/dojo/#/${feature}`);
    await page.getByTestId(`page-${feature}`).waitFor();
  }

  async function send(page: Page, text: string): Promise<void> {
    await page.getByTestId("chat-input").fill(text);
    await page.getByTestId("send-button").click();
  }

  async function waitForStatus(page: Page, status: "idle" | "waiting" | "error" | "running"): Promise<void> {
    await page.locator(`[data-testid="run-status"][data-status="${status}"]`).waitFor();
  }

  async function waitForReply(page: Page, text: string | RegExp): Promise<void> {
    await page.getByTestId("assistant-message").filter({ hasText: text }).first().waitFor();
  }

  /**
   * Starts watching for a transient element (a pending card, a streaming message) before the action
   * that makes it appear, and returns a wait for "it was in the DOM at some point". A MutationObserver
   * sees every committed DOM change, so a state that lasts less than a frame on a loaded machine (when
   * polling, even on every animation frame, can miss it) still counts.
   */
  async function watchForTransient(page: Page, selector: string): Promise<() => Promise<void>> {
    await page.evaluate((css) => {
      const seen = ((window as unknown as { __transientSeen?: Record<string, boolean> }).__transientSeen ??= {});
      seen[css] = document.querySelector(css) !== null;
      if (seen[css]) return;
      const observer = new MutationObserver(() => {
        if (document.querySelector(css) === null) return;
        seen[css] = true;
        observer.disconnect();
      });
      observer.observe(document, { subtree: true, childList: true, attributes: true });
    }, selector);
    return async () => {
      await page.waitForFunction((css) => (window as unknown as { __transientSeen?: Record<string, boolean> }).__transientSeen?.[css] === true, selector, { timeout: stepTimeoutMs });
    };
  }

  /**
   * The README's screenshots are rewritten only when asked (UPDATE_SCREENSHOTS=1): a test run must
   * not leave the tracked PNGs changed (each render differs by a few bytes). The page is still
   * rendered to a buffer, so the step runs either way.
   */
  async function saveReadmeScreenshot(page: Page, name: string): Promise<void> {
    if (process.env.UPDATE_SCREENSHOTS !== "1") {
      await page.screenshot();
      return;
    }
    mkdirSync(readmeScreenshots, { recursive: true });
    await page.screenshot({ path: `${readmeScreenshots}${name}.png` });
  }

  /**
   * The events of a one-message run on `feature`, in a fresh thread, over plain HTTP (no browser),
   * from `localAddress` when the server is on loopback: the server counts what each address holds.
   */
  async function runOverHttp(feature: Feature, text: string, localAddress?: string): Promise<Array<{ type: string; content?: string; delta?: string }>> {
    const body = JSON.stringify({
      threadId: `probe-${randomUUID()}`,
      runId: randomUUID(),
      state: feature.initialState(),
      messages: [{ id: randomUUID(), role: "user", content: text }],
      tools: feature.frontendTools.map((tool) => tool.definition),
      context: [],
      forwardedProps: {},
    });
    const url = `${server?.baseUrl}/${feature.id}`;
    const from = localAddress !== undefined && new URL(url).hostname.startsWith("127.") ? localAddress : undefined;
    const response = await postSse(url, body, from);
    expect(response.status).toBe(200);
    return response.text
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice("data: ".length)) as { type: string; content?: string; delta?: string });
  }

  /** The content of the first TOOL_CALL_RESULT of a one-message run on `feature`. */
  async function toolResultOf(featureId: FeatureId, text: string): Promise<string> {
    const events = await runOverHttp(featureById(featureId) as Feature, text);
    const result = events.find((event) => event.type === "TOOL_CALL_RESULT");
    if (result?.content === undefined) throw new Error(`no TOOL_CALL_RESULT in ${JSON.stringify(events.map((event) => event.type))}`);
    return result.content;
  }

  function userTexts(input: RunAgentInput | undefined): unknown[] {
    return (input?.messages ?? []).filter((message) => message.role === "user").map((message) => message.content);
  }

  test("agentic_chat: streamed reply with reasoning, weather tool card, change_background frontend tool, thread kept and continued", async () => {
    await withPage("agentic_chat", async (page, sent) => {
      await openFeature(page, "agentic_chat");
      // The header shows what GET /agentic_chat/capabilities advertises.
      await page.locator('[data-testid="capabilities"][data-status="loaded"]').waitFor();
      expect(await page.getByTestId("capability").allTextContents()).toContain("streaming");
      const streamed = await watchForTransient(page, '[data-testid="assistant-message"][data-streaming="true"]');
      await send(page, "Hello there");
      // The reply is seen while it streams, then complete.
      await streamed();
      await waitForReply(page, "Hello! I am the agentic chat demo");
      await waitForStatus(page, "idle");
      await page.locator('[data-testid="assistant-message"][data-streaming="true"]').waitFor({ state: "detached" });
      const reasoning = page.getByTestId("reasoning-block");
      expect(await reasoning.getAttribute("open")).toBeNull();
      expect(await page.getByTestId("reasoning-text").textContent()).toContain("A greeting.");

      await send(page, "What's the weather in Paris?");
      await page.getByTestId("weather-card").waitFor();
      expect(await page.getByTestId("weather-location").textContent()).toBe("Paris");
      await waitForReply(page, "Here is the current weather");
      await waitForStatus(page, "idle");
      await saveReadmeScreenshot(page, "agentic-chat");

      await send(page, "Change the background to blue please");
      await waitForReply(page, "Done: I asked the page to change the background");
      await waitForStatus(page, "idle");
      expect(await page.getByTestId("chat-panel").getAttribute("style")).toContain("linear-gradient");

      // The frontend tool was declared with JSON Schema parameters, and its answer went back as a ToolMessage.
      const declared = sent[0]?.tools.find((tool) => tool.name === "change_background");
      expect(declared?.parameters).toMatchObject({ type: "object", required: ["background"] });
      const answer = sent.at(-1)?.messages.at(-1);
      expect(answer).toMatchObject({ role: "tool", content: expect.stringContaining("Background changed") });
      expect(sent.map((input) => input.threadId).every((threadId) => threadId === sent[0]?.threadId)).toBe(true);
      expect(sent.map((input) => input.runId)).toHaveLength(new Set(sent.map((input) => input.runId)).size);

      // The thread is kept in localStorage: a reload continues it, and the next run carries the whole history.
      await page.reload();
      await waitForReply(page, "Done: I asked the page to change the background");
      await send(page, "Hello again");
      await expect.poll(() => page.getByTestId("assistant-message").filter({ hasText: "Hello! I am the agentic chat demo" }).count(), { timeout: stepTimeoutMs }).toBe(2);
      await waitForStatus(page, "idle");
      expect(userTexts(sent.at(-1))).toEqual(["Hello there", "What's the weather in Paris?", "Change the background to blue please", "Hello again"]);
      expect(sent.at(-1)?.threadId).toBe(sent[0]?.threadId);

      // A new thread starts empty; the picker brings the old one back.
      await page.getByTestId("new-thread").click();
      await page.getByTestId("empty-chat").waitFor();
      const previous = sent[0]?.threadId ?? "";
      await page.getByTestId("thread-picker").selectOption(previous);
      await waitForReply(page, "Done: I asked the page to change the background");
      expect(await page.getByTestId("user-message").count()).toBe(4);
    });
  });

  test("agentic_chat: RUN_ERROR is shown as an error with its code, and the next run clears it", async () => {
    await withPage("run_error", async (page) => {
      await openFeature(page, "agentic_chat");
      await send(page, "Please fail now");
      await page.getByTestId("run-error").waitFor();
      expect(await page.getByTestId("run-error-code").textContent()).toBe("MODEL_ERROR_503");
      expect(await page.getByTestId("run-error-message").textContent()).toContain("The model is unavailable");
      await waitForStatus(page, "error");
      await send(page, "Hi");
      await waitForReply(page, "Hello! I am the agentic chat demo");
      await waitForStatus(page, "idle");
      expect(await page.getByTestId("run-error").count()).toBe(0);
    });
  });

  test("backend_tool_rendering: get_weather goes from pending to a weather card showing the server's result", async () => {
    await withPage("backend_tool_rendering", async (page) => {
      await openFeature(page, "backend_tool_rendering");
      const pending = await watchForTransient(page, '[data-testid="weather-card-loading"]');
      await send(page, "What's the weather in San Francisco?");
      await pending();
      await page.getByTestId("weather-card").waitFor();
      await waitForReply(page, "Here is the current weather; the card shows the details.");
      await waitForStatus(page, "idle");
      expect(await page.getByTestId("weather-card-loading").count()).toBe(0);

      // The card shows what get_weather returns. The simulated weather is deterministic per place,
      // so the same question asked over HTTP in another thread gets the same TOOL_CALL_RESULT.
      // (Reading the page's own response body through the browser is no good: Chromium decodes an
      // SSE body with no charset as Latin-1, mangling "°".)
      const weather = JSON.parse(await toolResultOf("backend_tool_rendering", "What's the weather in San Francisco?")) as {
        location: string;
        temperature: number;
        unit: string;
        conditions: string;
        humidity: number;
        wind_speed: number;
        wind_unit: string;
      };
      expect(weather.location).toBe("San Francisco");
      expect(await page.getByTestId("weather-location").textContent()).toBe("San Francisco");
      expect(await page.getByTestId("weather-temperature").textContent()).toBe(`${weather.temperature}${weather.unit}`);
      expect(await page.getByTestId("weather-conditions").textContent()).toBe(weather.conditions);
      expect(await page.getByTestId("weather-humidity").textContent()).toBe(`${weather.humidity}%`);
      expect(await page.getByTestId("weather-wind").textContent()).toBe(`${weather.wind_speed} ${weather.wind_unit}`);
    });
  });

  test("human_in_the_loop: the plan parks the thread, the user drops a step and confirms, the agent carries out the rest", async () => {
    await withPage("human_in_the_loop", async (page, sent) => {
      await openFeature(page, "human_in_the_loop");
      await send(page, "Plan a trip to Mars");
      await waitForReply(page, "Here is a plan.");
      await page.getByTestId("select-steps").waitFor();
      await waitForStatus(page, "waiting");
      expect(await page.getByTestId("step-text").allTextContents()).toEqual(["Build the rocket", "Train the crew", "Launch", "Land on Mars", "Set up the base"]);
      expect(await page.getByTestId("thread-picker").locator("option", { hasText: "waiting for you" }).count()).toBe(1);

      await page.getByTestId("step-checkbox").nth(1).uncheck();
      expect(await page.getByTestId("step-item").nth(1).getAttribute("data-status")).toBe("disabled");
      await page.getByTestId("confirm-plan").click();
      await waitForReply(page, "Executing 4 steps: Build the rocket; Launch; Land on Mars; Set up the base.");
      await waitForStatus(page, "idle");
      expect(await page.getByTestId("plan-decision").textContent()).toContain("Plan confirmed");
      expect(await page.getByTestId("thread-picker").locator("option", { hasText: "waiting for you" }).count()).toBe(0);

      const answer = sent.at(-1)?.messages.at(-1);
      expect(answer?.role).toBe("tool");
      const content = JSON.parse(String(answer?.content)) as { accepted: boolean; steps: Array<{ status: string }> };
      expect(content.accepted).toBe(true);
      expect(content.steps.map((step) => step.status)).toEqual(["enabled", "disabled", "enabled", "enabled", "enabled"]);
    });
  });

  test("tool_based_generative_ui: generate_haiku renders as a haiku card and is answered", async () => {
    await withPage("tool_based_generative_ui", async (page, sent) => {
      await openFeature(page, "tool_based_generative_ui");
      await send(page, "Write me a haiku about autumn");
      await waitForReply(page, "I hope you enjoy the haiku.");
      await waitForStatus(page, "idle");
      const lines = page.getByTestId("haiku-line");
      expect(await lines.count()).toBe(3);
      expect(await lines.first().textContent()).toContain("この道や");
      expect(await lines.first().textContent()).toContain("Along this road");
      expect(await lines.last().textContent()).toContain("on an autumn evening");
      expect(await page.getByTestId("haiku-card").getAttribute("data-status")).toBe("complete");
      expect(sent).toHaveLength(2);
      expect(sent[1]?.messages.at(-1)).toMatchObject({ role: "tool", content: "Haiku generated!" });
    });
  });

  test("shared_state: the agent's deltas update the editor, and the user's edit reaches the agent", async () => {
    await withPage("shared_state", async (page, sent) => {
      await openFeature(page, "shared_state");
      expect(await page.getByTestId("recipe-title").inputValue()).toBe("Make Your Recipe");
      const ingredientsBefore = await page.getByTestId("ingredient-name").evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
      const instructionsBefore = await page.getByTestId("instruction-item").count();
      await page.getByTestId("new-ingredient-name").fill("Potatoes");
      await page.getByTestId("new-ingredient-amount").fill("12");
      await page.getByTestId("add-ingredient").click();
      expect(await page.getByTestId("ingredient-row").count()).toBe(ingredientsBefore.length + 1);

      // The agent changes the recipe: its STATE_SNAPSHOT / STATE_DELTA events land in the editor.
      await send(page, "Improve the recipe");
      await waitForReply(page, "I added garlic and fresh herbs");
      await waitForStatus(page, "idle");
      expect(sent[0]?.state).toMatchObject({ recipe: { title: "Make Your Recipe" } });
      expect((sent[0]?.state as { recipe: { ingredients: Array<{ name: string }> } }).recipe.ingredients.map((ingredient) => ingredient.name)).toContain("Potatoes");
      const ingredientsAfter = await page.getByTestId("ingredient-name").evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
      expect(ingredientsAfter).toEqual([...ingredientsBefore, "Potatoes", "Garlic", "Fresh herbs"]);
      expect(await page.getByTestId("instruction-item").count()).toBe(instructionsBefore + 1);
      expect(await page.getByTestId("recipe-title").inputValue()).toBe("Make Your Recipe");

      // The user edits what the agent changed; the next run carries it, and the agent reads it back.
      await page.getByTestId("recipe-title").fill("Potato soup");
      await send(page, "Give me all the ingredients");
      await waitForReply(page, "Here is the recipe as it stands, with your edits");
      await waitForReply(page, "Potato soup");
      await waitForStatus(page, "idle");
      const replies = await page.getByTestId("assistant-message").allTextContents();
      expect(replies.at(-1)).toContain("Fresh herbs");
      const state = sent.at(-1)?.state as { recipe: { title: string; ingredients: Array<{ name: string }> } };
      expect(state.recipe.title).toBe("Potato soup");
      expect(state.recipe.ingredients.map((ingredient) => ingredient.name)).toEqual(ingredientsAfter);
      expect(await page.getByTestId("recipe-title").inputValue()).toBe("Potato soup");
    });
  });

  test("agentic_generative_ui: task progress streams in as state deltas", async () => {
    await withPage("agentic_generative_ui", async (page) => {
      await openFeature(page, "agentic_generative_ui");
      await send(page, "Plan a product launch");
      await page.getByTestId("task-step").first().waitFor();
      expect(await page.getByTestId("task-step").allTextContents()).toEqual([
        expect.stringContaining("Research the market"),
        expect.stringContaining("Write the plan"),
        expect.stringContaining("Build the prototype"),
        expect.stringContaining("Launch"),
      ]);
      // Progress is seen part-way, not only at the end.
      await page.waitForFunction(
        () => {
          const statuses = [...document.querySelectorAll('[data-testid="task-step"]')].map((step) => step.getAttribute("data-status"));
          return statuses.includes("completed") && statuses.includes("pending");
        },
        undefined,
        { polling: "raf", timeout: stepTimeoutMs },
      );
      await page.locator('[data-testid="task-progress"][data-complete="true"]').waitFor();
      expect(await page.getByTestId("task-progress-summary").textContent()).toBe("4 of 4 steps done");
      await waitForReply(page, "All done.");
      await waitForStatus(page, "idle");
    });
  });

  test("agentic_generative_ui: Stop ends a streaming run without an error, and the thread can go on", async () => {
    await withPage("stop_run", async (page) => {
      await openFeature(page, "agentic_generative_ui");
      await send(page, "Plan a product launch");
      await page.getByTestId("task-step").first().waitFor();
      await page.getByTestId("stop-button").click();
      await page.getByTestId("run-stopped").waitFor();
      await waitForStatus(page, "idle");
      expect(await page.getByTestId("run-error").count()).toBe(0);
      expect(await page.getByTestId("task-progress").getAttribute("data-complete")).toBe("false");
      await page.getByTestId("send-button").waitFor();
      await send(page, "Organise a team offsite");
      await page.locator('[data-testid="task-progress"][data-complete="true"]').waitFor();
      expect(await page.getByTestId("task-step").first().textContent()).toContain("Pick the dates");
      await waitForStatus(page, "idle");
      expect(await page.getByTestId("run-error").count()).toBe(0);
    });
  });

  test("tool_approval: the interrupt parks the run; approve, edit-and-approve, then deny with a reason", async () => {
    await withPage("tool_approval", async (page, sent) => {
      const writeFileCards = page.locator('[data-testid="tool-call-card"][data-tool-name="write_file"]');
      await openFeature(page, "tool_approval");

      // Approve as asked.
      await send(page, "Save path: todo.md, content: buy milk");
      await page.getByTestId("approval-interrupt").waitFor();
      await waitForStatus(page, "waiting");
      expect(await page.getByTestId("approval-tool-name").textContent()).toBe("write_file");
      expect(JSON.parse((await page.getByTestId("approval-args").textContent()) ?? "null")).toEqual({ path: "todo.md", content: "buy milk" });
      expect(await page.getByTestId("interrupt-deadline").textContent()).toMatch(/^answer by /);
      expect(await writeFileCards.last().getAttribute("data-status")).toBe("awaiting-approval");
      expect(await page.getByTestId("chat-input").isDisabled()).toBe(true);
      expect(await page.getByTestId("thread-picker").locator("option", { hasText: "waiting for you" }).count()).toBe(1);
      await saveReadmeScreenshot(page, "tool-approval");
      await page.getByTestId("approve-button").click();
      await waitForReply(page, /write_file answered: .*"path":\s*"todo\.md"/);
      await waitForStatus(page, "idle");
      expect(await writeFileCards.last().getAttribute("data-status")).toBe("complete");
      expect(await page.getByTestId("tool-call-result").last().textContent()).toContain('"bytes": 8');
      const firstInterruptId = sent[1]?.resume?.[0]?.interruptId ?? "";
      expect(sent[1]?.resume).toEqual([{ interruptId: firstInterruptId, status: "resolved", payload: { approved: true } }]);

      // Edit the arguments, then approve.
      await send(page, "Write a file called notes.txt saying hello");
      await page.getByTestId("approval-interrupt").waitFor();
      expect(await writeFileCards.count()).toBe(2);
      await page.getByTestId("edit-args-button").click();
      await page.getByTestId("edit-args").fill(JSON.stringify({ path: "notes.txt", content: "hello, edited" }));
      await page.getByTestId("approve-edited").click();
      await waitForReply(page, /write_file answered: .*"path":\s*"notes\.txt"/);
      await waitForStatus(page, "idle");
      expect(await writeFileCards.last().getAttribute("data-status")).toBe("complete");
      expect(await page.getByTestId("tool-call-result").last().textContent()).toContain('"bytes": 13');
      expect(sent.at(-1)?.resume).toEqual([
        { interruptId: expect.any(String), status: "resolved", payload: { approved: true, editedArgs: { path: "notes.txt", content: "hello, edited" } } },
      ]);

      // Deny, with a reason the agent repeats.
      await send(page, "Write it to a file again");
      await page.getByTestId("approval-interrupt").waitFor();
      await page.getByTestId("deny-button").click();
      await page.getByTestId("deny-reason").fill("Not today");
      await page.getByTestId("deny-confirm").click();
      await waitForReply(page, /write_file answered: .*Not today/);
      await waitForStatus(page, "idle");
      expect(sent.at(-1)?.resume?.[0]).toMatchObject({ status: "resolved", payload: { approved: false, reason: "Not today" } });
      expect(await writeFileCards.count()).toBe(3);
      // The card says the call was denied; the server's TOOL_CALL_RESULT carries the refusal.
      expect(await writeFileCards.last().getAttribute("data-status")).toBe("denied");
      expect(await writeFileCards.last().getByTestId("tool-call-status").textContent()).toBe("Denied");
      expect(await page.getByTestId("tool-call-result").last().textContent()).toContain("Not today");
      expect(await page.getByTestId("interrupt-panel").count()).toBe(0);
      expect(await page.getByTestId("chat-input").isDisabled()).toBe(false);

      // The decision is kept with the thread.
      await page.reload();
      await waitForReply(page, /write_file answered: .*Not today/);
      expect(await writeFileCards.evaluateAll((cards) => cards.map((card) => card.getAttribute("data-status")))).toEqual(["complete", "complete", "denied"]);
    });
  });

  test("questions: the choice survives a reload while parked, and the answer resumes the run", async () => {
    await withPage("questions", async (page, sent) => {
      await openFeature(page, "questions");
      await send(page, "Help me pick a programming language");
      await page.getByTestId("question-interrupt").waitFor();
      await waitForStatus(page, "waiting");
      expect(await page.getByTestId("question-option").allTextContents()).toEqual(["TypeScript", "Python", "Go"]);
      await saveReadmeScreenshot(page, "questions");

      // The parked run is remembered with the thread: the question is still there after a reload.
      await page.reload();
      await page.getByTestId("question-interrupt").waitFor();
      await waitForStatus(page, "waiting");

      await page.locator('[data-testid="question-option"]', { hasText: "Python" }).click();
      await page.getByTestId("question-submit").click();
      await waitForReply(page, "You chose: Python.");
      await waitForStatus(page, "idle");
      expect(await page.getByTestId("interrupt-panel").count()).toBe(0);
      expect(sent.at(-1)?.resume).toEqual([{ interruptId: expect.any(String), status: "resolved", payload: { answers: [{ selected: ["1"], skipped: false }] } }]);
    });
  });

  test("questions: a multi-select question takes several choices (toggled) and a free-text note", async () => {
    await withPage("questions_multi_select", async (page, sent) => {
      await openFeature(page, "questions");
      await send(page, "Which pizza toppings should I get?");
      await page.getByTestId("question-interrupt").waitFor();
      await waitForStatus(page, "waiting");
      expect(await page.getByTestId("question-option").allTextContents()).toEqual(["Mushrooms", "Olives", "Peppers", "Pineapple"]);
      await page.getByText("Choose any that apply.").waitFor();

      const option = (text: string) => page.locator('[data-testid="question-option"]', { hasText: text });
      await option("Mushrooms").click();
      await option("Peppers").click();
      await option("Olives").click();
      await option("Olives").click();
      expect(await page.locator('[data-testid="question-option"][aria-pressed="true"]').allTextContents()).toEqual(["Mushrooms", "Peppers"]);
      await page.getByTestId("question-freeform").fill("extra cheese");
      await page.getByTestId("question-submit").click();
      await waitForReply(page, "You chose: Mushrooms, Peppers, extra cheese.");
      await waitForStatus(page, "idle");
      expect(sent.at(-1)?.resume?.[0]).toMatchObject({ status: "resolved", payload: { answers: [{ selected: ["0", "2"], freeform: "extra cheese", skipped: false }] } });
    });
  });

  test("questions: an input_required interrupt gets a form from its responseSchema; cancelling resumes with status cancelled", async () => {
    await withPage("questions_form", async (page, sent) => {
      await openFeature(page, "questions");
      await send(page, "Plan my weekend");
      await page.getByTestId("schema-interrupt").waitFor();
      await waitForStatus(page, "waiting");

      // Required fields are checked before anything is sent.
      const runsBefore = sent.length;
      await page.getByTestId("schema-submit").click();
      expect(await page.locator('[data-testid="schema-field-budget"] .field-error').textContent()).toBe("Enter a number.");
      expect(sent).toHaveLength(runsBefore);

      await page.locator('[data-testid="schema-field-budget"] input').fill("200");
      await page.locator('[data-testid="schema-field-currency"] [data-testid="schema-option"]', { hasText: "EUR" }).click();
      await page.locator('[data-testid="schema-field-outdoors"] input').check();
      await page.getByTestId("schema-submit").click();
      await waitForReply(page, "Planning a weekend for 200 EUR outdoors.");
      await waitForStatus(page, "idle");
      expect(sent.at(-1)?.resume?.[0]).toMatchObject({ status: "resolved", payload: { budget: 200, currency: "EUR", outdoors: true } });

      await send(page, "Help me pick a programming language");
      await page.getByTestId("question-interrupt").waitFor();
      await page.getByTestId("interrupt-cancel").click();
      await waitForReply(page, "You chose: (cancelled).");
      await waitForStatus(page, "idle");
      const cancelled = sent.at(-1)?.resume?.[0];
      expect(cancelled?.status).toBe("cancelled");
      expect(cancelled?.payload).toBeUndefined();
      expect(await page.getByTestId("interrupt-panel").count()).toBe(0);
    });
  });

  test("reconnect: a reload mid-reply connects again and the reply finishes, once", async () => {
    await withPage("reconnect_reload", async (page, sent) => {
      await openFeature(page, "reconnect");
      await send(page, "Tell me a long story");
      await waitForReply(page, "Once upon a time");
      expect(await page.getByTestId("assistant-message").filter({ hasText: "The end." }).count()).toBe(0);

      // The page goes away mid-reply; the server finishes the run without it.
      await page.reload();
      await page.getByTestId("page-reconnect").waitFor();
      await waitForReply(page, "Nothing was lost and nothing came twice. The end.");
      expect(await page.getByTestId("assistant-message").filter({ hasText: "Once upon a time" }).count()).toBe(1);
      expect(await page.getByTestId("user-message").count()).toBe(1);
      expect(await page.getByTestId("run-error").count()).toBe(0);
      // The reloaded page asked the connect route, not for a new run.
      expect(sent.filter((input) => input.forwardedProps?.["stayOpen"] === true).length).toBeGreaterThanOrEqual(1);
      expect(userTexts(sent.at(-1))).toEqual(["Tell me a long story"]);
    });
  });

  test("reconnect: a scheduled reminder reaches the open page without being asked for", async () => {
    await withPage("reconnect_reminder", async (page, sent) => {
      await openFeature(page, "reconnect");
      await send(page, "Hello! What can you do?");
      await waitForReply(page, "a scheduled reminder arrives");
      await waitForStatus(page, "idle");
      // The page follows its thread once the run is over.
      await expect.poll(() => sent.filter((input) => input.forwardedProps?.["stayOpen"] === true).length, { timeout: stepTimeoutMs }).toBe(1);
      const postsBefore = sent.length;
      await waitForReply(page, "Reminder (you did not ask for this one): Scheduled reminder: time to stretch your legs.");
      expect(await page.getByTestId("user-message").count()).toBe(1);
      // It came down the open connect stream: the page sent nothing for it.
      expect(sent).toHaveLength(postsBefore);
      await saveReadmeScreenshot(page, "reconnect");
    });
  });

  test("autonomous_work: a live task list, a schedule firing, a skill lookup, a stop-hook continuation and a budget stop", async () => {
    await withPage("autonomous_work", async (page, sent) => {
      await openFeature(page, "autonomous_work");
      const tasks = page.getByTestId("agent-tasks").getByTestId("agent-task");

      // manage_task calls become the task list, drawn beside the chat and updated as the agent works.
      await send(page, "Plan the release");
      await waitForReply(page, "I planned the release in three tasks");
      await expect.poll(() => tasks.evaluateAll((items) => items.map((item) => item.getAttribute("data-state")))).toEqual(["done", "running", "waiting"]);
      await waitForStatus(page, "idle");

      // The agent schedules a turn; the harness starts it itself 1.5 s later, and it reaches the open page.
      await send(page, "Remind me to check on the release");
      await waitForReply(page, "I will come back to you on my own");
      await page.locator('[data-activity="schedule"]').filter({ hasText: "check on the release" }).waitFor();
      await waitForReply(page, "Reminder, as you asked: check on the release. I checked: the release is on track.");
      // That turn of its own ticked its task off.
      await tasks.filter({ hasText: "Check on the release" }).and(page.locator('[data-state="done"]')).waitFor();
      expect(await page.getByTestId("user-message").count()).toBe(2);

      // A skill looked up, on a card of its own.
      await send(page, "Follow the release-checklist skill");
      await page.locator('[data-testid="tool-call-card"][data-tool-name="skill_lookup"][data-status="complete"]').waitFor();
      await waitForReply(page, "I looked up release-checklist");

      // The STOP hook sends a report without a summary back: one run, two answers, the continuation shown between them.
      const runsBefore = sent.filter((input) => input.forwardedProps?.["stayOpen"] !== true).length;
      await send(page, "Write a report on the release");
      await waitForReply(page, "Summary: three tasks planned, one reminder set, nothing blocked.");
      await page.locator('[data-activity="continuation"]').filter({ hasText: "add a one-line summary to the report" }).waitFor();
      await waitForStatus(page, "idle");
      expect(sent.filter((input) => input.forwardedProps?.["stayOpen"] !== true).length).toBe(runsBefore + 1);
      // The page followed its thread again after that run: the task list of earlier runs stayed.
      await expect.poll(() => tasks.count()).toBe(3);
      await saveReadmeScreenshot(page, "autonomous-work");

      // A job past the budget keeps what was said and stops with the code that says why.
      await send(page, "Take on the big job");
      await page.getByTestId("run-error").waitFor();
      expect(await page.getByTestId("run-error-code").textContent()).toBe("BUDGET_EXCEEDED");
      expect(await page.getByTestId("run-error-message").textContent()).toContain("its budget of tool calls ran out");
      await waitForReply(page, "Starting the big job");
    });
  });

  test("every page says its replies are scripted, and its Code tab shows the server agent's definition and the page's code", async () => {
    await withPage("code-tab", async (page) => {
      for (const feature of features) {
        await openFeature(page, feature.id);
        await expect.poll(() => page.getByTestId("scripted-note").textContent()).toMatch(/Scripted replies.*GEMINI_API_KEY/);
        await page.getByTestId("tab-code").click();
        const files = page.getByTestId("code-file");
        const sides = await files.evaluateAll((buttons) => buttons.map((button) => button.getAttribute("data-side")));
        expect(sides, feature.id).toContain("server");
        expect(sides, feature.id).toContain("page");
        // The first file is the agent's definition, read from apps/server itself.
        const first = page.getByTestId("code-text");
        expect(await first.getAttribute("data-path"), feature.id).toMatch(/^apps\/server\/src\/agents\//);
        expect(await first.textContent(), feature.id).toContain("new AntigravityAgent(");
        // A page file: the page's own code.
        await files.filter({ hasText: "apps/dojo/src/" }).first().click();
        expect(await page.getByTestId("code-text").getAttribute("data-path"), feature.id).toMatch(/^apps\/dojo\/src\//);
        expect((await page.getByTestId("code-text").textContent())?.length ?? 0, feature.id).toBeGreaterThan(200);
        // Back to Preview: the chat is there again.
        await page.getByTestId("tab-preview").click();
        await page.getByTestId("code-view").waitFor({ state: "detached" });
      }
    });
  });

  test("every page's suggestions get a scripted answer from the server's demo scenarios, not its fallback", async () => {
    // The pages side by side, each page's suggestions one after another; each page a visitor of its
    // own address, as nine people would be (one address may run 8 at once and leave 16 parked, and
    // these probes never answer what they park).
    const outcomes = await Promise.all(
      features.map(async (feature, index) => {
        const found: Array<{ where: string; last: string | undefined; text: string }> = [];
        for (const suggestion of feature.suggestions) {
          const events = await runOverHttp(feature, suggestion, `127.0.0.${20 + index}`);
          const text = events.map((event) => (event.type === "TEXT_MESSAGE_CONTENT" ? (event.delta ?? "") : "")).join("");
          found.push({ where: `${feature.id}: "${suggestion}"`, last: events.at(-1)?.type, text });
        }
        return found;
      }),
    );
    for (const { where, last, text } of outcomes.flat()) {
      expect(last, where).toBe("RUN_FINISHED");
      // Every scenario's catch-all rule quotes the message back.
      expect(text, where).not.toContain("You said:");
    }
  });
});
