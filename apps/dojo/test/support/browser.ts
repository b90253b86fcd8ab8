// Debian's Chromium, driven by playwright-core: nothing downloads a browser of its own.
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

const candidatePaths = [process.env["CHROMIUM_PATH"], "/usr/bin/chromium", "/usr/bin/chromium-browser"];

/** The Chromium binary the tests use, or undefined when none is installed. */
export const chromiumPath: string | undefined = candidatePaths.find((path): path is string => path !== undefined && path !== "" && existsSync(path));

export const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Launches Chromium with a fresh profile (playwright makes a temporary user-data dir per launch). */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: chromiumArgs, headless: true, timeout: 30_000 });
}
