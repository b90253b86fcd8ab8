import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "../../server/node_modules/pino/pino.js";
import { test } from "vitest";
import { createDemoServer } from "../../server/src/app.js";
import { emulatorBinaryPath } from "../../server/src/harness/harness-choice.js";
import { chromiumPath, launchChromium } from "./support/browser.js";
import { dojoDistDirectory } from "./support/startServer.js";

test("probe the real server", async () => {
  const demo = await createDemoServer({ harness: { kind: "emulator", binaryPath: emulatorBinaryPath(), reason: "probe" }, logger: pino({ level: "silent" }), dojoDistDirectory, taskStepDelayMs: 300 });
  const server = createServer(demo.app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await launchChromium(chromiumPath!);
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("pageerror", (error) => console.log("pageerror", error.message));
  page.on("console", (message) => { if (message.type() === "error" || message.type() === "warning") console.log("console", message.text().slice(0, 300)); });
  page.setDefaultTimeout(15_000);
  const step = async (name: string, action: () => Promise<void>) => {
    try { await action(); console.log("OK", name); } catch (error) { console.log("FAIL", name, String(error).slice(0, 400)); }
    await page.screenshot({ path: `/tmp/real-${name}.png` });
  };
  const open = async (feature: string) => { await page.goto(`${baseUrl}/dojo/#/${feature}`); await page.getByTestId(`page-${feature}`).waitFor(); };
  const send = async (text: string) => { await page.getByTestId("chat-input").fill(text); await page.getByTestId("send-button").click(); };
  const idle = async () => { await page.locator('[data-testid="run-status"]:not([data-status="running"])').waitFor(); };
  await step("agentic_chat-hello", async () => { await open("agentic_chat"); await send("Hello there"); await page.getByTestId("assistant-message").first().waitFor(); await idle(); });
  await step("agentic_chat-weather", async () => { await send("What's the weather in Paris?"); await page.getByTestId("weather-card").waitFor(); await idle(); });
  await step("agentic_chat-background", async () => { await send("Change the background to blue"); await page.waitForTimeout(1500); await idle(); });
  await step("backend_tool_rendering", async () => { await open("backend_tool_rendering"); await send("What's the weather in San Francisco?"); await page.getByTestId("weather-card").waitFor(); await idle(); });
  await step("human_in_the_loop", async () => { await open("human_in_the_loop"); await send("Plan a trip to Mars"); await page.getByTestId("select-steps").waitFor(); await idle(); await page.getByTestId("step-checkbox").nth(1).uncheck(); await page.getByTestId("confirm-plan").click(); await page.waitForTimeout(1500); await idle(); });
  await step("tool_based_generative_ui", async () => { await open("tool_based_generative_ui"); await send("Write me a haiku about autumn"); await page.getByTestId("haiku-card").waitFor(); await page.waitForTimeout(1500); await idle(); });
  await step("shared_state", async () => { await open("shared_state"); await page.getByTestId("new-ingredient-name").fill("Potatoes"); await page.getByTestId("add-ingredient").click(); await send("Improve the recipe"); await page.waitForTimeout(2500); await idle(); });
  await step("agentic_generative_ui", async () => { await open("agentic_generative_ui"); await send("Plan a product launch"); await page.getByTestId("task-step").first().waitFor(); await page.waitForTimeout(4000); await idle(); });
  await step("tool_approval", async () => { await open("tool_approval"); await send("Write a file called notes.txt saying hello"); await page.getByTestId("approval-interrupt").waitFor(); await page.getByTestId("edit-args-button").click(); const text = await page.getByTestId("edit-args").inputValue(); console.log("edit text", text); await page.getByTestId("edit-args").fill(text.replace("hello", "hello, edited")); await page.getByTestId("approve-edited").click(); await page.waitForTimeout(2000); await idle(); });
  await step("tool_approval-deny", async () => { await send("Write a file called other.txt saying hi"); await page.getByTestId("approval-interrupt").waitFor(); await page.getByTestId("deny-button").click(); await page.getByTestId("deny-reason").fill("Not today"); await page.getByTestId("deny-confirm").click(); await page.waitForTimeout(2000); await idle(); });
  await step("questions", async () => { await open("questions"); await send("Help me pick a programming language"); await page.getByTestId("question-interrupt").waitFor(); await page.locator('[data-testid="question-option"]', { hasText: "Python" }).click(); await page.getByTestId("question-submit").click(); await page.waitForTimeout(2000); await idle(); });
  await step("questions-weekend", async () => { await send("Plan my weekend"); await page.getByTestId("schema-interrupt").waitFor(); await page.locator('[data-testid="schema-field-budget"] input').fill("200"); await page.locator('[data-testid="schema-option"]', { hasText: "EUR" }).click(); await page.getByTestId("schema-submit").click(); await page.waitForTimeout(2000); await idle(); });
  for (const feature of ["agentic_chat", "backend_tool_rendering", "human_in_the_loop", "tool_based_generative_ui", "shared_state", "agentic_generative_ui", "tool_approval", "questions"]) {
    await open(feature);
    const texts = await page.locator('[data-testid="assistant-message"], [data-testid="run-error"], [data-testid="tool-call-card"]').allTextContents();
    console.log("==", feature, JSON.stringify(texts).slice(0, 900));
  }
  await browser.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await demo.close();
}, 180_000);
