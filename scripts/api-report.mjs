#!/usr/bin/env node
// The public API of every published package, as API Extractor reports it: one report per entry
// point (`packages/<dir>/api/<name>.api.md`, checked in). `pnpm api:check` (part of `pnpm test`)
// fails when a report differs from the built declarations, so an export cannot change unreviewed;
// `pnpm api:update` rewrites them after a reviewed change. Both read the ESM declarations in `dist/`
// (`pnpm build` first): tsup emits `index.d.ts` and `index.d.cts` with the same content, so one
// report per entry point covers both.
import { fileURLToPath } from "node:url";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { Extractor, ExtractorConfig } from "@microsoft/api-extractor";

const root = fileURLToPath(new URL("..", import.meta.url));
const update = process.argv.includes("--update");
const only = process.argv.slice(2).filter((argument) => !argument.startsWith("--"));

/** Every published package's entry points: its `exports` keys with their ESM declaration file. */
function entryPoints() {
  const found = [];
  for (const dir of readdirSync(join(root, "packages")).sort()) {
    const packageFolder = join(root, "packages", dir);
    const manifestPath = join(packageFolder, "package.json");
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    if (manifest.private === true) continue;
    if (only.length > 0 && !only.includes(dir)) continue;
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      const types = typeof target === "object" ? target?.import?.types : undefined;
      if (types === undefined) continue;
      const name = subpath === "." ? dir : `${dir}-${subpath.slice(2).replaceAll("/", "-")}`;
      found.push({ packageFolder, manifestPath, name, declarations: join(packageFolder, types), label: subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}` });
    }
  }
  return found;
}

/**
 * Entry points whose exports may go without a doc comment: harness's `./protocol` is the wire
 * catalogue (hundreds of generated schemas and enum names), documented by docs/protocol.md as a whole.
 */
const UNDOCUMENTED_ALLOWED = new Set(["@ag-ui-antigravity/harness/protocol"]);

// Only the report: no doc model, no rolled-up declarations (tsup already bundles them). Release tags
// are not used here, and TSDoc style is not this check's business. Two warnings fail the check
// instead of landing in a report: a type the public API uses but the entry point does not export
// (`ae-forgotten-export`: a reader cannot name it), and an export without a doc comment
// (`ae-undocumented`: the public API is what is documented, every export and every member of one).
function messagesFor(label) {
  const undocumented = UNDOCUMENTED_ALLOWED.has(label) ? "none" : "error";
  return {
    compilerMessageReporting: { default: { logLevel: "warning" } },
    extractorMessageReporting: {
      default: { logLevel: "warning", addToApiReportFile: true },
      "ae-forgotten-export": { logLevel: "error", addToApiReportFile: false },
      "ae-missing-release-tag": { logLevel: "none", addToApiReportFile: false },
      "ae-internal-missing-underscore": { logLevel: "none", addToApiReportFile: false },
      "ae-unresolved-link": { logLevel: "none", addToApiReportFile: false },
      "ae-undocumented": { logLevel: undocumented, addToApiReportFile: false },
    },
    tsdocMessageReporting: { default: { logLevel: "none", addToApiReportFile: false } },
  };
}

/** The names a report says its entry point exports (`export declare class X`, `export type Y`, …). */
function exportedNames(reportPath) {
  if (!existsSync(reportPath)) return [];
  const names = new Set();
  for (const match of readFileSync(reportPath, "utf8").matchAll(/^export (?:declare )?(?:abstract )?(?:interface|type|class|const|function|enum|namespace) ([A-Za-z_$][\w$]*)/gm)) {
    names.add(match[1]);
  }
  return [...names];
}

/**
 * Names exported by entry points of two different packages. What packages share has one public
 * home, `@ag-ui-antigravity/core`, and no other package re-exports it; a name in two packages' reports
 * is two declarations a user could mix up. Entries of one package (harness and harness/protocol)
 * may share names: they are one release of one package.
 */
function namesInTwoPackages(entries) {
  const homes = new Map();
  for (const entry of entries) {
    for (const name of exportedNames(join(entry.packageFolder, "api", `${entry.name}.api.md`))) {
      const packages = homes.get(name) ?? new Map();
      if (!packages.has(entry.manifestPath)) packages.set(entry.manifestPath, entry.label);
      homes.set(name, packages);
    }
  }
  return [...homes]
    .filter(([, packages]) => packages.size > 1)
    .map(([name, packages]) => `\`${name}\` is exported by ${[...packages.values()].join(" and ")}: export it from one package only (shared names live in @ag-ui-antigravity/core)`);
}

const tempFolder = mkdtempSync(join(tmpdir(), "api-report-"));
const stale = [];
const failed = [];
try {
  const entries = entryPoints();
  for (const entry of entries) {
    if (!existsSync(entry.declarations)) {
      failed.push(`${entry.label}: ${relative(root, entry.declarations)} is missing (run \`pnpm build\` first)`);
      continue;
    }
    if (update) mkdirSync(join(entry.packageFolder, "api"), { recursive: true });
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: entry.packageFolder,
        mainEntryPointFilePath: entry.declarations,
        compiler: { tsconfigFilePath: join(entry.packageFolder, "tsconfig.json") },
        apiReport: {
          enabled: true,
          reportFileName: `${entry.name}.api.md`,
          reportFolder: join(entry.packageFolder, "api"),
          reportTempFolder: tempFolder,
        },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        newlineKind: "lf",
        messages: messagesFor(entry.label),
      },
      configObjectFullPath: join(entry.packageFolder, "api-extractor.json"),
      packageJsonFullPath: entry.manifestPath,
    });
    const result = Extractor.invoke(config, {
      localBuild: update,
      showVerboseMessages: false,
      messageCallback: (message) => {
        // A changed report is what this script reports itself, with the command that fixes it.
        if (message.messageId.startsWith("console-api-report-")) message.handled = true;
      },
    });
    const report = relative(root, join(entry.packageFolder, "api", `${entry.name}.api.md`));
    if (result.errorCount > 0) failed.push(`${entry.label}: ${result.errorCount} error(s) (see above)`);
    else if (result.apiReportChanged && !update) stale.push(`${entry.label}: ${report}`);
    else console.log(`${update && result.apiReportChanged ? "updated" : "ok     "} ${entry.label} (${report})`);
  }
  // Only on the whole set: one package's reports alone cannot show a clash with another's.
  if (only.length === 0) failed.push(...namesInTwoPackages(entries));
} finally {
  rmSync(tempFolder, { recursive: true, force: true });
}

if (stale.length > 0) {
  console.error(
    [
      "",
      "The public API differs from its checked-in report:",
      ...stale.map((line) => `  ${line}`),
      "",
      "If the change is intended, run `pnpm build && pnpm api:update`, review the diff of packages/*/api/*.api.md,",
      "and commit it (with a changeset for a user-visible change). Otherwise, undo the export change.",
    ].join("\n"),
  );
}
for (const line of failed) console.error(`error   ${line}`);
process.exit(stale.length > 0 || failed.length > 0 ? 1 : 0);
