#!/usr/bin/env node
// The whole test suite: build, typecheck and lint every package, check the API reports, smoke-test the packed tarballs,
// run every package's tests and the CopilotKit compatibility job, then print one `N passed, N failed`
// line summed over all of them so a run that executed no test is visible to CI.
import { fileURLToPath } from "node:url";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";

const root = fileURLToPath(new URL("..", import.meta.url));
const workspaceDirs = ["packages", "apps"].flatMap((group) => {
  const dir = join(root, group);
  return existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [];
});
// The benchmarks package (its fault suite runs in the test command) sits at the root.
workspaceDirs.push(join(root, "benchmarks"));
// So does deploy (the cluster: HAProxy, Redis, replicas).
workspaceDirs.push(join(root, "deploy"));
for (const dir of workspaceDirs) rmSync(join(dir, ".vitest-report.json"), { force: true });

const steps = [
  ["pnpm", ["exec", "turbo", "run", "build", "typecheck", "lint"]],
  // These scripts belong to no package, so no package's lint reads them (fileURLToPath, node: imports, …).
  // drive-copilotkit.mjs runs inside the compatibility project, with that project's dependencies.
  ["pnpm", ["exec", "eslint", "scripts", "--ignore-pattern", "scripts/compat/drive-copilotkit.mjs"]],
  // Each published entry point's declarations against its checked-in API report (packages/*/api/).
  ["node", ["scripts/api-report.mjs"]],
  ["node", ["scripts/smoke-packed.mjs"]],
  // --continue: one failing package must not hide the results of the others.
  ["pnpm", ["exec", "turbo", "run", "test", "--concurrency=1", "--continue"]],
  // The packed tarballs installed with plain npm next to CopilotKit from the registry, driven through
  // @copilotkit/core (scripts/compat-copilotkit.mjs).
  ["node", ["scripts/compat-copilotkit.mjs"]],
];

/** Runs a step with its output streamed through, and returns its exit code and what it printed. */
function runStep(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    let output = "";
    child.stdout.on("data", (chunk) => {
      process.stdout.write(chunk);
      output += chunk.toString();
    });
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

let exitCode = 0;
let passed = 0;
let failed = 0;
let skipped = 0;
for (const [command, args] of steps) {
  const { code, output } = await runStep(command, args);
  // The packed-artifact scripts (smoke, compat) end with their own `name: N passed, N failed` line.
  const summary = /^(?:smoke|compat): (\d+) passed, (\d+) failed$/m.exec(output);
  if (summary) {
    passed += Number(summary[1]);
    failed += Number(summary[2]);
  }
  if (code !== 0) {
    exitCode = code;
    break;
  }
}

/** `<package dir> › <test name>: <first line of the reason>` for each failed test in a vitest JSON report. */
function failedTests(report, dir) {
  const where = dir.slice(root.length);
  const firstLine = (text) => String(text ?? "").split("\n")[0].slice(0, 300);
  return (report.testResults ?? []).flatMap((file) => {
    const tests = (file.assertionResults ?? []).filter((test) => test.status === "failed");
    // A file that failed outside any test (an import, a hook) has no failed test to name.
    if (tests.length === 0 && file.status === "failed") return [`${file.name.slice(root.length)}: ${firstLine(file.message)}`];
    return tests.map((test) => `${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
  });
}

const failures = [];
for (const dir of workspaceDirs) {
  const reportPath = join(dir, ".vitest-report.json");
  if (!existsSync(reportPath)) continue;
  const report = JSON.parse(readFileSync(reportPath, "utf8"));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  failures.push(...failedTests(report, dir));
}
// CI keeps only the tail of the output: name every failed test (with the first line of its reason) there.
for (const failure of failures) console.log(`failed: ${failure}`);
if (exitCode === 0 && passed === 0) {
  console.error("no test ran");
  exitCode = 1;
}
if (failed > 0 && exitCode === 0) exitCode = 1;
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(exitCode);
