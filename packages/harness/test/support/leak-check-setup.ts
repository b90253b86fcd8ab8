// Every test in this package ends with a leak check: no child process, socket, server or ref'd
// timer may outlive it. Suites that spawn processes also check their process groups themselves.
import { afterEach, beforeEach } from "vitest";
import { expectNoLeaks, takeLeakBaseline, type LeakBaseline } from "./leak-check.js";

let baseline: LeakBaseline | undefined;

beforeEach(() => {
  baseline = takeLeakBaseline();
});

afterEach(async () => {
  if (baseline !== undefined) await expectNoLeaks(baseline);
  baseline = undefined;
});
