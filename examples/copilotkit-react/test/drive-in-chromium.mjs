// Drives the built example in Chromium as a person would, against `node server.mjs` on the emulator:
// the chat answers, the agent's call to the frontend tool changes the page's background, and the
// approval it waits for renders in the chat and, once approved, lets the run finish.
// usage: node test/drive-in-chromium.mjs <page url> <chromium path> [screenshot.png]
// Prints one `ok <check>` or `FAIL <check>\t<why>` line per check (scripts/compat-copilotkit.mjs counts them).
import { chromium } from "playwright-core";

const [pageUrl, chromiumPath, screenshotPath] = process.argv.slice(2);
if (pageUrl === undefined || chromiumPath === undefined) throw new Error("usage: node test/drive-in-chromium.mjs <page url> <chromium path> [screenshot.png]");

let failures = 0;
async function check(name, body) {
  try {
    await body();
    console.log(`ok   ${name}`);
  } catch (error) {
    failures += 1;
    console.log(`FAIL ${name}\t${String(error instanceof Error ? error.message : error).replace(/\s*\n\s*/g, " ")}`);
  }
}

const browser = await chromium.launch({
  executablePath: chromiumPath,
  headless: true,
  timeout: 30_000,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(30_000);
  const pageErrors = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
  // Nothing but this origin: the page must not reach for anything else (fonts, telemetry).
  const origin = new URL(pageUrl).origin;
  const foreign = [];
  await page.route("**/*", (route) => {
    if (route.request().url().startsWith(origin)) return route.continue();
    foreign.push(route.request().url());
    return route.abort();
  });
  await page.goto(pageUrl);

  const textarea = page.getByTestId("copilot-chat-textarea");
  const send = async (text) => {
    await textarea.fill(text);
    await textarea.press("Enter");
  };
  const assistantMessages = page.getByTestId("copilot-assistant-message");

  await check("the chat renders and answers a message", async () => {
    await textarea.waitFor();
    await send("Hello there!");
    await assistantMessages.first().waitFor();
    await page.waitForFunction(() => (document.querySelector('[data-testid="copilot-assistant-message"]')?.textContent ?? "").trim().length > 0);
  });

  await check("the agent's call to the frontend tool changes the page's background", async () => {
    const before = await assistantMessages.count();
    await send("Please change the background to lightblue with change_background.");
    await page.waitForFunction(() => document.querySelector("main.page")?.getAttribute("data-background") === "lightblue");
    // The tool's result goes back to the agent, which answers once more.
    await page.waitForFunction((count) => document.querySelectorAll('[data-testid="copilot-assistant-message"]').length > count, before);
  });

  await check("the approval renders in the chat, and approving it lets the run finish", async () => {
    await send("Delete record 42 with delete_record.");
    const approval = page.getByTestId("approval");
    await approval.waitFor();
    const before = await assistantMessages.count();
    await approval.getByRole("button", { name: "Approve" }).click();
    await approval.waitFor({ state: "detached" });
    await page.waitForFunction((count) => document.querySelectorAll('[data-testid="copilot-assistant-message"]').length > count, before);
  });

  await check("no page errors and no request beyond the page's origin", async () => {
    if (pageErrors.length > 0) throw new Error(`page errors: ${pageErrors.join("; ")}`);
    if (foreign.length > 0) throw new Error(`requests elsewhere: ${[...new Set(foreign)].join(", ")}`);
  });
  if (screenshotPath !== undefined) await page.screenshot({ path: screenshotPath, fullPage: true });
} finally {
  await browser.close();
}
process.exit(failures === 0 ? 0 : 1);
