#!/usr/bin/env node
// The compatibility job: what a CopilotKit user and an npm user do, with the packed tarballs.
//  1. Installs them with plain npm (no --force, no --legacy-peer-deps) into a copy of
//     examples/copilotkit-react, whose package-lock.json pins CopilotKit (runtime, react-core, core),
//     the @ag-ui/client it pins, React, Vite and playwright-core: `npm ci`, so CI installs the same
//     versions every day, from npm's cache (--prefer-offline) once the machine has them.
//     `pnpm compat --latest` tries the registry's newest CopilotKit instead. When this run did that
//     `npm ci` itself (a clean machine, CI), the lockfile is then installed again with `npm ci --offline`
//     into an empty folder: the pinned install needs no network.
//  2. Type-checks the README's "Using with CopilotKit" snippets (in process and remote): strict,
//     skipLibCheck false, under moduleResolution nodenext and bundler.
//  3. Drives chat, a frontend tool, an approval interrupt + resume, and stop through @copilotkit/core,
//     remote (HttpAgent → apps/server) and in process (scripts/compat/drive-copilotkit.mjs).
//  4. Builds examples/copilotkit-react and drives it in Debian's Chromium (its test/drive-in-chromium.mjs):
//     chat, the frontend tool, the approval rendered and approved.
//  5. Pastes the README's quick example verbatim into an empty project with only the two public
//     packages + express installed, runs it with no key, then with harness "discover" and no harness
//     on the machine, which must answer 503 with the reason and say why once in the log.
// Prints `compat: N passed, N failed`, which scripts/run-tests.mjs adds to the suite's total: it is a
// step of `pnpm test` (so of CI), and runs alone with `pnpm compat`.
import { execFile, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { packPublishedPackages, repositoryRoot } from "./lib/pack-packages.mjs";

const usage = `Usage: pnpm compat [--latest] [--fresh] [--offline]

The packed packages installed with plain npm next to CopilotKit, driven as a CopilotKit user would
(scripts/compat-copilotkit.mjs says what it checks). CopilotKit's versions are the ones
examples/copilotkit-react/package-lock.json pins; --latest tries the registry's newest instead.
The pinned install is kept under ~/.cache/ag-ui-antigravity/compat between runs; --fresh installs it anew.
--offline installs from npm's cache (~/.npm) alone and fails on anything it lacks: with --fresh, it
proves the pinned lockfile installs with no network once a run has filled the cache.
Run \`pnpm build\` first.
`;
let latest = false;
let fresh = false;
let offline = false;
try {
  const { values } = parseArgs({ args: process.argv.slice(2).filter((argument) => argument !== "--"), strict: true, options: { latest: { type: "boolean" }, fresh: { type: "boolean" }, offline: { type: "boolean" }, help: { type: "boolean" } } });
  if (values.help) {
    process.stdout.write(usage);
    process.exit(0);
  }
  latest = values.latest === true;
  fresh = values.fresh === true;
  offline = values.offline === true;
} catch (error) {
  process.stderr.write(`pnpm compat: ${error.message}\n\n${usage}`);
  process.exit(2);
}
const exampleDirectory = join(repositoryRoot, "examples", "copilotkit-react");
const chromiumPath = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find((path) => path !== undefined && path !== "" && existsSync(path));

const workDir = mkdtempSync(join(tmpdir(), "agui-antigravity-compat-"));
const tsc = join(repositoryRoot, "node_modules", ".bin", "tsc");
// --prefer-offline: what npm's own cache (~/.npm, kept between clean clones on one machine) already
// holds is installed from disk, without asking the registry whether it changed.
const npmInstall = ["install", "--no-audit", "--no-fund", "--loglevel=error", offline ? "--offline" : "--prefer-offline"];
// CI has no business phoning home: CopilotKit's telemetry and install-time analytics stay off.
const quietEnv = { ...process.env, COPILOTKIT_TELEMETRY_DISABLED: "true", DO_NOT_TRACK: "1", SCARF_ANALYTICS: "false" };
const startedAt = Date.now();
let passed = 0;
let failed = 0;

function record(name, error) {
  // Seconds since the job started, so a slow step shows where the time went.
  const at = `(${((Date.now() - startedAt) / 1000).toFixed(0)} s)`;
  if (error === undefined) {
    passed += 1;
    console.log(`ok   ${name} ${at}`);
  } else {
    failed += 1;
    console.log(`FAIL ${name} ${at}\n${String(error instanceof Error ? error.message : error).trim()}`);
  }
}

/** Runs a check; returns whether it passed. */
async function check(name, body) {
  try {
    await body();
    record(name);
    return true;
  } catch (error) {
    record(name, error);
    return false;
  }
}

function run(command, args, options) {
  try {
    return execFileSync(command, args, { encoding: "utf8", stdio: "pipe", env: quietEnv, ...options });
  } catch (error) {
    throw new Error(`${command} ${args.join(" ")} failed:\n${error.stdout ?? ""}${error.stderr ?? ""}`.slice(0, 6000));
  }
}

/** The fenced block that follows `<!-- marker -->` in the root README. */
function readmeBlock(marker) {
  const readme = readFileSync(join(repositoryRoot, "README.md"), "utf8");
  const match = new RegExp(`<!-- ${marker} -->\\s*\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (match === null) throw new Error(`README.md has no code block after <!-- ${marker} -->`);
  return match[1];
}

function writeJson(path, value) {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** Starts `node file` and resolves with the child and the first URL it prints on stdout. */
async function startServer(file, { cwd, env }) {
  const child = spawn(process.execPath, [file], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      // The caller never gets a handle on a server that did not start, so it is stopped here.
      child.kill("SIGTERM");
      reject(new Error(`${file} printed no URL within 60 s:\n${stdout}${stderr}`));
    }, 60_000);
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      const found = /http:\/\/(?:127\.0\.0\.1|localhost):\d+/.exec(stdout);
      if (found !== null) {
        clearTimeout(timer);
        resolve(found[0]);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited with ${code}:\n${stdout}${stderr}`));
    });
  });
  return { child, url, output: () => ({ stdout, stderr }) };
}

async function stopServer(server) {
  if (server.child.exitCode !== null) return;
  server.child.kill("SIGTERM");
  await once(server.child, "exit");
}

function runInput(text) {
  return {
    threadId: `compat-${Math.random().toString(36).slice(2)}`,
    runId: "run-1",
    messages: [{ id: "m1", role: "user", content: text }],
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
  };
}

function postRun(url, text) {
  return fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream" }, body: JSON.stringify(runInput(text)) });
}

/**
 * `npm ci` of the example's lockfile, the job's slowest step (1 100 packages, two to three minutes
 * on 2 cores), depends on nothing but the lockfile: its node_modules is kept once per lockfile
 * digest under ~/.cache/ag-ui-antigravity/compat and hard-linked into the project (seconds). npm
 * replaces files rather than writing into them, so the packed packages installed on top never
 * change the kept copy. `--fresh`, or a machine without `cp -al`, runs `npm ci` in the project.
 */
function installPinned(project) {
  const npmCi = ["ci", ...npmInstall.slice(1)];
  if (fresh) {
    run("npm", npmCi, { cwd: project });
    return true;
  }
  const digest = createHash("sha256").update(readFileSync(join(project, "package-lock.json"))).update(readFileSync(join(project, "package.json"))).digest("hex").slice(0, 16);
  const cacheRoot = join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "ag-ui-antigravity", "compat");
  const kept = join(cacheRoot, digest);
  let ranCi = false;
  if (!existsSync(join(kept, "complete"))) {
    // One kept install at a time: an older lockfile's is removed, not piled up.
    rmSync(cacheRoot, { recursive: true, force: true });
    mkdirSync(kept, { recursive: true });
    for (const file of ["package.json", "package-lock.json"]) copyFileSync(join(project, file), join(kept, file));
    run("npm", npmCi, { cwd: kept });
    writeFileSync(join(kept, "complete"), `${new Date().toISOString()}\n`);
    ranCi = true;
  }
  try {
    execFileSync("cp", ["-al", join(kept, "node_modules"), join(project, "node_modules")], { stdio: "pipe" });
  } catch {
    rmSync(join(project, "node_modules"), { recursive: true, force: true });
    run("npm", npmCi, { cwd: project });
    ranCi = true;
  }
  return ranCi;
}

/**
 * The pinned lockfile installs with no network: `npm ci --offline` of it into an empty folder, from
 * what the `npm ci` of this run just put in npm's cache. A lockfile that names a package it cannot
 * resolve without the registry (a missing entry, a version range, a git dependency) fails here, so
 * the job's install is the same on every machine and day.
 */
function installPinnedOffline(project) {
  const scratch = mkdtempSync(join(tmpdir(), "agui-antigravity-compat-offline-"));
  try {
    for (const file of ["package.json", "package-lock.json"]) copyFileSync(join(project, file), join(scratch, file));
    run("npm", ["ci", "--offline", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: scratch });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The CopilotKit versions to use: the example's lockfile pins (default), or the registry's newest (`--latest`). */
function copilotKitVersions(project) {
  if (!latest) {
    const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8"));
    const version = (name) => lock.packages[`node_modules/${name}`]?.version;
    return { runtime: version("@copilotkit/runtime"), reactCore: version("@copilotkit/react-core"), core: version("@copilotkit/core"), client: version("@ag-ui/client") };
  }
  const runtime = JSON.parse(run("npm", ["view", "@copilotkit/runtime@latest", "version", "dependencies", "--json"]));
  const reactCore = run("npm", ["view", "@copilotkit/react-core@latest", "version"]).trim();
  const core = run("npm", ["view", "@copilotkit/core@latest", "version"]).trim();
  return { runtime: runtime.version, reactCore, core, client: runtime.dependencies["@ag-ui/client"] };
}

async function copilotKitProject(tarballs) {
  // One install serves every CopilotKit check: examples/copilotkit-react's own package.json and
  // lockfile (CopilotKit, React, Vite, express, playwright-core at pinned versions), as a user of
  // the example installs it, plus the packed packages.
  const project = join(workDir, "copilotkit");
  cpSync(exampleDirectory, project, { recursive: true, filter: (source) => !/[/\\](node_modules|dist)$/.test(source) });
  const versions = copilotKitVersions(project);
  console.log(
    `compat: @copilotkit/runtime ${versions.runtime}, @copilotkit/react-core ${versions.reactCore}, @copilotkit/core ${versions.core}, @ag-ui/client ${versions.client}` +
      (latest ? " (the newest, --latest)" : " (pinned by examples/copilotkit-react/package-lock.json)"),
  );
  // Whether this run's own `npm ci` filled npm's cache (a kept install from an earlier run did not).
  let pinnedInstallRan = false;
  const installed = await check(
    latest ? `npm install next to the newest CopilotKit (no --force, no --legacy-peer-deps)` : "npm ci of the pinned CopilotKit install, then the packed packages (no --force, no --legacy-peer-deps)",
    () => {
      if (latest) {
        rmSync(join(project, "package-lock.json"));
        run(
          "npm",
          [
            ...npmInstall,
            `@copilotkit/runtime@${versions.runtime}`,
            `@copilotkit/react-core@${versions.reactCore}`,
            `@copilotkit/core@${versions.core}`,
            `@ag-ui/client@${versions.client}`,
          ],
          { cwd: project },
        );
      } else {
        pinnedInstallRan = installPinned(project);
      }
      // --no-save: the lockfile stays the pinned one; npm keeps what it installed from it.
      run("npm", [...npmInstall, "--no-save", ...tarballs], { cwd: project });
    },
  );
  if (!installed) return;
  if (!latest && pinnedInstallRan) {
    await check("the pinned lockfile installs again with no network (npm ci --offline, npm's cache only)", () => installPinnedOffline(project));
  }

  await check("one @ag-ui/client copy serves CopilotKit and the agent", () => {
    const paths = run("npm", ["ls", "@ag-ui/client", "--all", "--parseable"], { cwd: project }).trim().split("\n");
    const copies = [...new Set(paths.filter((path) => path.endsWith(join("node_modules", "@ag-ui", "client"))))];
    if (copies.length !== 1) throw new Error(`found ${copies.length} copies:\n${copies.join("\n")}`);
  });

  writeFileSync(join(project, "in-process.ts"), readmeBlock("copilotkit-in-process"));
  writeFileSync(join(project, "remote.ts"), readmeBlock("copilotkit-remote"));
  const strict = { strict: true, skipLibCheck: false, noEmit: true, target: "ES2022", lib: ["ES2023", "DOM"], types: ["node"] };
  const resolutions = {
    nodenext: { module: "NodeNext", moduleResolution: "NodeNext" },
    bundler: { module: "ESNext", moduleResolution: "Bundler" },
  };
  for (const [name, resolution] of Object.entries(resolutions)) {
    writeJson(join(project, `tsconfig.${name}.json`), { compilerOptions: { ...strict, ...resolution }, files: ["in-process.ts", "remote.ts"] });
    await check(`README CopilotKit snippets type-check (strict, skipLibCheck false, ${name})`, () => {
      let output = "";
      try {
        execFileSync(tsc, ["-p", `tsconfig.${name}.json`, "--pretty", "false"], { cwd: project, encoding: "utf8", stdio: "pipe" });
      } catch (error) {
        output = `${error.stdout ?? ""}${error.stderr ?? ""}`;
      }
      const errors = output.split("\n").filter((line) => /error TS\d+/.test(line));
      // Errors inside other libraries' own declarations are theirs; ours and the snippets' are not.
      const foreign = errors.filter((line) => line.startsWith("node_modules/") && !line.startsWith("node_modules/@ag-ui-antigravity/"));
      for (const line of foreign) console.log(`     (not ours) ${line}`);
      const ours = errors.filter((line) => !foreign.includes(line));
      if (ours.length > 0 || (errors.length === 0 && output.trim() !== "")) throw new Error(ours.join("\n") || output);
    });
  }

  // Remote: apps/server as built in the workspace, on the emulator, on a free port.
  const demoServer = await startServer(join(repositoryRoot, "apps", "server", "dist", "main.js"), {
    cwd: join(repositoryRoot, "apps", "server"),
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ANTIGRAVITY_DEMO_HARNESS: "emulator", DEMO_TASK_STEP_MS: "400" },
  });
  try {
    copyFileSync(join(repositoryRoot, "scripts", "compat", "drive-copilotkit.mjs"), join(project, "drive-copilotkit.mjs"));
    const drive = spawn(process.execPath, ["drive-copilotkit.mjs", demoServer.url], { cwd: project, env: quietEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    drive.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    let buffered = "";
    const lines = [];
    drive.stdout.on("data", (chunk) => {
      buffered += chunk;
      let newline;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        lines.push(buffered.slice(0, newline));
        buffered = buffered.slice(newline + 1);
      }
    });
    const timer = setTimeout(() => drive.kill("SIGKILL"), 5 * 60_000);
    const [code] = await once(drive, "exit");
    clearTimeout(timer);
    let failedChecks = 0;
    for (const line of lines) {
      // `ok <check>` or `FAIL <check>\t<why>` (scripts/compat/drive-copilotkit.mjs).
      const result = /^(ok|FAIL) +([^\t]*)(?:\t(.*))?$/.exec(line);
      if (result === null) continue;
      if (result[1] === "FAIL") failedChecks += 1;
      record(`CopilotKitCore → runtime → ${result[2]}`, result[1] === "ok" ? undefined : (result[3] ?? "failed"));
    }
    // A driver that died (or hung and was killed) before reporting every check still fails the job.
    if (code !== 0 && failedChecks === 0) record("drive-copilotkit.mjs", `exited with ${code}:\n${lines.join("\n")}\n${stderr.slice(-4000)}`);
  } finally {
    await stopServer(demoServer);
  }

  await exampleInChromium(project);
}

/** examples/copilotkit-react built and driven in Debian's Chromium, on the emulator (its test/drive-in-chromium.mjs). */
async function exampleInChromium(project) {
  await check("examples/copilotkit-react type-checks (strict, exactOptionalPropertyTypes)", () => {
    run(tsc, ["-p", "tsconfig.json", "--pretty", "false"], { cwd: project });
  });
  const built = await check("examples/copilotkit-react: the page builds (vite build)", () => {
    run(process.execPath, [join(project, "node_modules", "vite", "bin", "vite.js"), "build", "--logLevel", "error"], { cwd: project });
  });
  if (!built) return;
  if (chromiumPath === undefined) {
    const reason = "no Chromium (apt-get install chromium, or set CHROMIUM_PATH)";
    if (process.env.AG_UI_REQUIRE_SERVICES === "1") record("examples/copilotkit-react in Chromium", reason);
    else console.log(`skip examples/copilotkit-react in Chromium: ${reason}`);
    return;
  }
  const server = await startServer("server.mjs", { cwd: project, env: { ...quietEnv, PORT: "0", HOST: "127.0.0.1", GEMINI_API_KEY: "" } });
  try {
    const output = await new Promise((resolve) => {
      execFile(process.execPath, [join("test", "drive-in-chromium.mjs"), `${server.url}/`, chromiumPath], { cwd: project, env: quietEnv, timeout: 4 * 60_000 }, (error, stdout, stderr) =>
        resolve({ error, stdout, stderr }),
      );
    });
    let reported = 0;
    for (const line of output.stdout.split("\n")) {
      // `ok <check>` or `FAIL <check>\t<why>` (examples/copilotkit-react/test/drive-in-chromium.mjs).
      const result = /^(ok|FAIL) +([^\t]*)(?:\t(.*))?$/.exec(line);
      if (result === null) continue;
      reported += 1;
      record(`examples/copilotkit-react in Chromium: ${result[2]}`, result[1] === "ok" ? undefined : (result[3] ?? "failed"));
    }
    if (output.error && reported === 0) record("examples/copilotkit-react in Chromium", `${output.error.message}\n${output.stdout}${output.stderr.slice(-4000)}`);
  } finally {
    await stopServer(server);
  }
}

async function readmeProject(tarballs) {
  const project = join(workDir, "readme");
  mkdirSync(project);
  writeJson(join(project, "package.json"), { name: "compat-readme", private: true, version: "0.0.0", type: "module" });
  // The public packages would come from the registry with their internal dependencies; here the
  // internal ones are tarballs too, and npm adds the peers (@ag-ui/client, @ag-ui/core, rxjs) itself.
  const installed = await check("README install line: the two public packages + express, plain npm", () => {
    run("npm", [...npmInstall, ...tarballs, "express"], { cwd: project });
  });
  if (!installed) return;
  const example = readmeBlock("quick-example");
  writeFileSync(join(project, "server.mjs"), example);

  await check("README quick example, pasted verbatim, answers a run with no key", async () => {
    const server = await startServer("server.mjs", { cwd: project, env: { ...process.env, PORT: "0" } });
    try {
      const health = await fetch(`${server.url}/healthz`);
      if (health.status !== 200) throw new Error(`/healthz answered ${health.status}`);
      const ready = await fetch(`${server.url}/readyz`);
      if (ready.status !== 200) throw new Error(`/readyz answered ${ready.status}: ${await ready.text()}`);
      const answer = await postRun(`${server.url}/chat`, "Hello from the compat job");
      const body = await answer.text();
      if (answer.status !== 200 || !body.includes("TEXT_MESSAGE_CONTENT") || !body.includes("RUN_FINISHED")) {
        throw new Error(`expected a streamed answer, got ${answer.status}:\n${body.slice(0, 2000)}`);
      }
    } finally {
      await stopServer(server);
    }
  });

  await check('harness "discover" with no harness: /readyz and every run 503 with the reason, explained in one log line', async () => {
    if (!example.includes('harness: "emulator"')) throw new Error('the README example no longer says harness: "emulator"');
    writeFileSync(join(project, "discover.mjs"), example.replace('harness: "emulator"', 'harness: "discover"'));
    // A machine without the harness: only node on PATH, no ANTIGRAVITY_HARNESS_PATH.
    const env = { HOME: process.env.HOME ?? tmpdir(), PATH: dirname(process.execPath), PORT: "0" };
    const server = await startServer("discover.mjs", { cwd: project, env });
    try {
      // Not ready, before any run: a load balancer stops sending runs that would all be refused.
      const ready = await fetch(`${server.url}/readyz`);
      const readyBody = await ready.json();
      if (ready.status !== 503 || readyBody.error?.code !== "HARNESS_NOT_FOUND") throw new Error(`/readyz answered ${ready.status}: ${JSON.stringify(readyBody)}`);
      if ((await fetch(`${server.url}/healthz`)).status !== 200) throw new Error("/healthz (liveness) did not answer 200");
      for (const attempt of [1, 2]) {
        const answer = await postRun(`${server.url}/chat`, "Hello");
        const text = await answer.text();
        if (answer.status !== 503) throw new Error(`run ${attempt}: expected 503, got ${answer.status}: ${text.slice(0, 500)}`);
        const body = JSON.parse(text);
        if (body.error?.code !== "HARNESS_NOT_FOUND") throw new Error(`run ${attempt}: code ${body.error?.code}`);
        for (const hint of ["pip install google-antigravity", 'harness: "emulator"']) {
          if (!body.error.message.includes(hint)) throw new Error(`the 503 message does not say ${hint}: ${body.error.message}`);
        }
      }
      const lines = server.output().stderr.split("\n").filter((line) => line.includes("cannot start the Antigravity harness"));
      if (lines.length !== 1) throw new Error(`expected one log line, got ${lines.length}:\n${server.output().stderr}`);
      if (!lines[0].includes("Searched")) throw new Error(`the log line does not say where it looked: ${lines[0]}`);
    } finally {
      await stopServer(server);
    }
  });
}

try {
  const packed = packPublishedPackages(workDir);
  const tarballs = packed.map((entry) => entry.tarball);
  await copilotKitProject(tarballs);
  await readmeProject(tarballs);
} catch (error) {
  record("compat job", error);
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
console.log(`compat: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
