// The dojo in a real browser: one test per feature page, against the server from startServer()
// (today the scripted stand-in, later apps/server). Each test types a message, watches the reply
// stream in, completes the human step where there is one, and checks the final page state and
// what the page sent over HTTP.
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { RunAgentInput } from "@ag-ui/core";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { chromiumPath, launchChromium } from "./support/browser.js";
import { dojoDistDirectory, startServer, type RunningServer } from "./support/startServer.js";

const failureScreenshots = fileURLToPath(new URL("../test-results/", import.meta.url));
const readmeScreenshots = fileURLToPath(new URL("../../../docs/screenshots/", import.meta.url));

const suiteName =
  chromiumPath === undefined
    ? "dojo browser tests SKIPPED: no Chromium binary at /usr/bin/chromium (apt-get install chromium, or set CHROMIUM_PATH)"
    : "dojo in Chromium";
if (chromiumPath === undefined) console.warn(`\n*** ${suiteName} ***\n`);

describe.skipIf(chromiumPath === undefined)(suiteName, () => {
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    if (!existsSync(`${dojoDistDirectory}index.html`)) throw new Error(`${dojoDistDirectory}index.html is missing: run \`pnpm build\` first`);
    [server, browser] = await Promise.all([startServer(), launchChromium(chromiumPath as string)]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** What the page POSTed to the feature routes, in order. */
  type SentRuns = RunAgentInput[];

  /**
   * A fresh browser context per test (so a fresh localStorage and thread), with the page's run
   * requests recorded and a full-page screenshot saved under test-results/ when the test fails.
   */
  async function withPage(name: string, body: (page: Page, sent: SentRuns) => Promise<void>): Promise<void> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    // Shorter than the test timeout, so a missing element fails here, with a screenshot.
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const sent: SentRuns = [];
    const pageErrors: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST") sent.push(JSON.parse(request.postData() ?? "null") as RunAgentInput);
    });
    page.on("pageerror", (error) => pageErrors.push(error.message));
    try {
      await body(page, sent);
      expect(pageErrors).toEqual([]);
    } catch (error) {
      mkdirSync(failureScreenshots, { recursive: true });
      await page.screenshot({ path: `${failureScreenshots}${name}.png`, fullPage: true }).catch(() => undefined);
      throw error;
    } finally {
      await context.close();
    }
  }

  async function openFeature(page: Page, feature: string): Promise<void> {
    await page.goto(`${server.baseUrl}/dojo/#/${feature}`);
    await page.getByTestId(`page-${feature}`).waitFor();
  }

  async function send(page: Page, text: string): Promise<void> {
    await page.getByTestId("chat-input").fill(text);
    await page.getByTestId("send-button").click();
  }

  async function waitForStatus(page: Page, status: "idle" | "waiting" | "error" | "running"): Promise<void> {
    await page.locator(`[data-testid="run-status"][data-status="${status}"]`).waitFor();
  }

  async function waitForReply(page: Page, text: string): Promise<void> {
    await page.getByTestId("assistant-message").filter({ hasText: text }).first().waitFor();
  }

  /**
   * Waits for a transient element (a pending card, a streaming message) by checking on every
   * animation frame; locator.waitFor backs off between polls and can miss a state that lasts 200 ms.
   */
  async function waitForTransient(page: Page, selector: string): Promise<void> {
    await page.waitForFunction((css) => document.querySelector(css) !== null, selector, { polling: "raf" });
  }

  async function saveReadmeScreenshot(page: Page, name: string): Promise<void> {
    mkdirSync(readmeScreenshots, { recursive: true });
    await page.screenshot({ path: `${readmeScreenshots}${name}.png` });
  }

  test("agentic_chat: streamed reply with reasoning, weather tool card, change_background frontend tool, thread kept and continued", async () => {
    await withPage("agentic_chat", async (page, sent) => {
      await openFeature(page, "agentic_chat");
      // The header shows what GET /agentic_chat/capabilities advertises.
      await page.locator('[data-testid="capabilities"][data-status="loaded"]').waitFor();
      expect(await page.getByTestId("capability").allTextContents()).toContain("streaming");
      await send(page, "Hello there");
      // The reply is seen while it streams, then complete.
      await waitForTransient(page, '[data-testid="assistant-message"][data-streaming="true"]');
      await waitForReply(page, 'You said "Hello there". This is message 1 in this thread.');
      await waitForStatus(page, "idle");
      const reasoning = page.getByTestId("reasoning-block");
      expect(await reasoning.getAttribute("open")).toBeNull();
      expect(await page.getByTestId("reasoning-text").textContent()).toContain("A greeting");

      await send(page, "What's the weather in Paris?");
      await page.getByTestId("weather-card").waitFor();
      expect(await page.getByTestId("weather-location").textContent()).toBe("Paris");
      await waitForReply(page, "partly cloudy in Paris");
      await waitForStatus(page, "idle");
      await saveReadmeScreenshot(page, "agentic-chat");

      await send(page, "Change the background please");
      await waitForReply(page, "Done:");
      await waitForStatus(page, "idle");
      expect(await page.getByTestId("chat-panel").getAttribute("style")).toContain("linear-gradient");

      // The frontend tool was declared with JSON Schema parameters, and its answer came back as a ToolMessage.
      const declared = sent[0]?.tools.find((tool) => tool.name === "change_background");
      expect(declared?.parameters).toMatchObject({ type: "object", required: ["background"] });
      const answer = sent.at(-1)?.messages.at(-1);
      expect(answer).toMatchObject({ role: "tool", content: expect.stringContaining("Background changed") });
      expect(sent.map((input) => input.threadId).every((threadId) => threadId === sent[0]?.threadId)).toBe(true);

      // The thread is kept in localStorage: a reload continues it, and the next message carries the history.
      await page.reload();
      await waitForReply(page, "Done:");
      await send(page, "Hello again");
      await waitForReply(page, "This is message 4 in this thread.");
      await waitForStatus(page, "idle");

      // A new thread starts empty; the picker brings the old one back.
      await page.getByTestId("new-thread").click();
      await page.getByTestId("empty-chat").waitFor();
      const previous = sent[0]?.threadId ?? "";
      await page.getByTestId("thread-picker").selectOption(previous);
      await waitForReply(page, "This is message 4 in this thread.");
    });
  });

  test("agentic_chat: RUN_ERROR is shown as an error with its code", async () => {
    await withPage("run_error", async (page) => {
      await openFeature(page, "agentic_chat");
      await send(page, "Please fail now");
      await page.getByTestId("run-error").waitFor();
      expect(await page.getByTestId("run-error-code").textContent()).toBe("harness_unavailable");
      expect(await page.getByTestId("run-error-message").textContent()).toContain("The harness stopped answering.");
      await waitForStatus(page, "error");
      // The next run clears the error.
      await send(page, "Hi");
      await waitForReply(page, 'You said "Hi"');
      await waitForStatus(page, "idle");
      expect(await page.getByTestId("run-error").count()).toBe(0);
    });
  });

  test("backend_tool_rendering: get_weather goes from pending to a weather card", async () => {
    await withPage("backend_tool_rendering", async (page) => {
      await openFeature(page, "backend_tool_rendering");
      await send(page, "What's the weather in San Francisco?");
      await waitForTransient(page, '[data-testid="weather-card-loading"]');
      await page.getByTestId("weather-card").waitFor();
      expect(await page.getByTestId("weather-location").textContent()).toBe("San Francisco");
      expect(await page.getByTestId("weather-temperature").textContent()).toBe("18°C");
      expect(await page.getByTestId("weather-conditions").textContent()).toBe("Partly cloudy");
      expect(await page.getByTestId("weather-humidity").textContent()).toBe("72%");
      expect(await page.getByTestId("weather-wind").textContent()).toBe("14 km/h");
      await waitForReply(page, "72% humidity");
      await waitForStatus(page, "idle");
      expect(await page.getByTestId("weather-card-loading").count()).toBe(0);
    });
  });

  test("human_in_the_loop: the plan parks the thread, the user drops a step and confirms", async () => {
    await withPage("human_in_the_loop", async (page, sent) => {
      await openFeature(page, "human_in_the_loop");
      await send(page, "Plan a trip to Mars");
      await page.getByTestId("select-steps").waitFor();
      await waitForStatus(page, "waiting");
      expect(await page.getByTestId("step-item").count()).toBe(5);
      expect(await page.getByTestId("thread-picker").locator("option", { hasText: "waiting for you" }).count()).toBe(1);

      await page.getByTestId("step-checkbox").nth(1).uncheck();
      expect(await page.getByTestId("step-item").nth(1).getAttribute("data-status")).toBe("disabled");
      await page.getByTestId("confirm-plan").click();
      await waitForReply(page, "Executing 4 steps: Build the rocket; Launch; Land on Mars; Set up the base.");
      await waitForStatus(page, "idle");
      expect(await page.getByTestId("plan-decision").textContent()).toContain("Plan confirmed");

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
      expect(await lines.first().textContent()).toContain("古池や");
      expect(await lines.first().textContent()).toContain("An old silent pond");
      expect(await page.getByTestId("haiku-card").getAttribute("data-status")).toBe("complete");
      expect(sent).toHaveLength(2);
      expect(sent[1]?.messages.at(-1)).toMatchObject({ role: "tool", content: "Haiku generated!" });
    });
  });

  test("shared_state: the user's edit reaches the agent and the agent's deltas update the editor", async () => {
    await withPage("shared_state", async (page, sent) => {
      await openFeature(page, "shared_state");
      expect(await page.getByTestId("recipe-title").inputValue()).toBe("Make Your Recipe");
      expect(await page.getByTestId("ingredient-row").count()).toBe(2);
      await page.getByTestId("new-ingredient-name").fill("Potatoes");
      await page.getByTestId("new-ingredient-amount").fill("12");
      await page.getByTestId("add-ingredient").click();
      expect(await page.getByTestId("ingredient-row").count()).toBe(3);

      await send(page, "Improve the recipe");
      await waitForReply(page, "Carrots, All-Purpose Flour, Potatoes");
      await waitForReply(page, "I added garlic");
      await waitForStatus(page, "idle");
      expect(await page.getByTestId("recipe-title").inputValue()).toBe("Improved Make Your Recipe");
      expect(await page.getByTestId("ingredient-row").count()).toBe(4);
      expect(await page.getByTestId("ingredient-name").nth(3).inputValue()).toBe("Garlic");
      expect(await page.getByTestId("instruction-item").count()).toBe(2);

      // The agent's changes are now the page's state, and the next run carries them with the user's next edit.
      await page.getByTestId("recipe-title").fill("Potato soup");
      await send(page, "Give me all the ingredients");
      await waitForReply(page, "Carrots, All-Purpose Flour, Potatoes, Garlic.");
      const state = sent.at(-1)?.state as { recipe: { title: string; ingredients: Array<{ name: string }> } };
      expect(state.recipe.title).toBe("Potato soup");
      expect(state.recipe.ingredients.map((ingredient) => ingredient.name)).toEqual(["Carrots", "All-Purpose Flour", "Potatoes", "Garlic"]);
    });
  });

  test("agentic_generative_ui: task progress streams in as state deltas", async () => {
    await withPage("agentic_generative_ui", async (page) => {
      await openFeature(page, "agentic_generative_ui");
      await send(page, "Plan a product launch");
      await page.getByTestId("task-step").first().waitFor();
      expect(await page.getByTestId("task-step").count()).toBe(4);
      // Progress is seen part-way, not only at the end.
      await page.waitForFunction(() => {
        const statuses = [...document.querySelectorAll('[data-testid="task-step"]')].map((step) => step.getAttribute("data-status"));
        return statuses.includes("completed") && statuses.includes("pending");
      });
      await page.locator('[data-testid="task-progress"][data-complete="true"]').waitFor();
      expect(await page.getByTestId("task-progress-summary").textContent()).toBe("4 of 4 steps done");
      await waitForReply(page, "All four steps are done.");
      await waitForStatus(page, "idle");
    });
  });

  test("agentic_generative_ui: Stop ends a streaming run without an error, and the thread can go on", async () => {
    await withPage("stop_run", async (page) => {
      await openFeature(page, "agentic_generative_ui");
      await send(page, "Plan a product launch slowly");
      await page.getByTestId("task-step").first().waitFor();
      await page.getByTestId("stop-button").click();
      await page.getByTestId("run-stopped").waitFor();
      await waitForStatus(page, "idle");
      expect(await page.getByTestId("run-error").count()).toBe(0);
      expect(await page.getByTestId("task-progress").getAttribute("data-complete")).toBe("false");
      await page.getByTestId("send-button").waitFor();
      await send(page, "Try again");
      await page.locator('[data-testid="task-progress"][data-complete="true"]').waitFor();
      await waitForStatus(page, "idle");
    });
  });

  test("tool_approval: the interrupt parks the run; edit-and-approve, then deny with a reason", async () => {
    await withPage("tool_approval", async (page, sent) => {
      await openFeature(page, "tool_approval");
      await send(page, "Write a file called notes.txt saying hello");
      await page.getByTestId("approval-interrupt").waitFor();
      await waitForStatus(page, "waiting");
      expect(await page.getByTestId("approval-tool-name").textContent()).toBe("write_file");
      expect(await page.getByTestId("interrupt-deadline").textContent()).toMatch(/^answer by /);
      expect(await page.locator('[data-testid="tool-call-card"][data-tool-name="write_file"]').getAttribute("data-status")).toBe("awaiting-approval");
      expect(await page.getByTestId("chat-input").isDisabled()).toBe(true);
      await saveReadmeScreenshot(page, "tool-approval");

      await page.getByTestId("edit-args-button").click();
      await page.getByTestId("edit-args").fill(JSON.stringify({ path: "notes.txt", content: "hello, edited" }));
      await page.getByTestId("approve-edited").click();
      await waitForReply(page, "Approved: I wrote notes.txt.");
      await waitForStatus(page, "idle");
      expect(await page.locator('[data-testid="tool-call-card"][data-tool-name="write_file"]').getAttribute("data-status")).toBe("complete");
      expect(await page.getByTestId("tool-call-result").textContent()).toContain('"bytes": 13');
      const interruptId = sent[0] === undefined ? "" : (sent[1]?.resume?.[0]?.interruptId ?? "");
      expect(sent[1]?.resume).toEqual([{ interruptId, status: "resolved", payload: { approved: true, editedArgs: { path: "notes.txt", content: "hello, edited" } } }]);

      await send(page, "Write it again");
      await page.getByTestId("approval-interrupt").waitFor();
      await page.getByTestId("deny-button").click();
      await page.getByTestId("deny-reason").fill("Not today");
      await page.getByTestId("deny-confirm").click();
      await waitForReply(page, "Understood, I did not run write_file (Not today).");
      await waitForStatus(page, "idle");
      expect(sent.at(-1)?.resume?.[0]).toMatchObject({ status: "resolved", payload: { approved: false, reason: "Not today" } });
    });
  });

  test("questions: the choice survives a reload while parked, and the answer resumes the run", async () => {
    await withPage("questions", async (page, sent) => {
      await openFeature(page, "questions");
      await send(page, "Help me pick a programming language");
      await page.getByTestId("question-interrupt").waitFor();
      await waitForStatus(page, "waiting");
      expect(await page.getByTestId("question-option").allTextContents()).toEqual(["TypeScript", "Python", "Go"]);

      // The parked run is remembered with the thread: the question is still there after a reload.
      await page.reload();
      await page.getByTestId("question-interrupt").waitFor();
      await waitForStatus(page, "waiting");

      await page.locator('[data-testid="question-option"]', { hasText: "Python" }).click();
      await page.getByTestId("question-submit").click();
      await waitForReply(page, "Great choice: Python.");
      await waitForStatus(page, "idle");
      expect(await page.getByTestId("interrupt-panel").count()).toBe(0);
      expect(sent.at(-1)?.resume?.[0]).toMatchObject({
        status: "resolved",
        payload: { answers: [{ selected: ["1"], skipped: false }] },
      });
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
      await waitForReply(page, "No problem, we can decide later.");
      await waitForStatus(page, "idle");
      const cancelled = sent.at(-1)?.resume?.[0];
      expect(cancelled?.status).toBe("cancelled");
      expect(cancelled?.payload).toBeUndefined();
    });
  });
});
