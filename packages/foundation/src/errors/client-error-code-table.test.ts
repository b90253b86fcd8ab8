import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CLIENT_ERROR_CODES, isClientErrorCode } from "@ag-ui-antigravity/core";
import { renderClientErrorCodeTable, runRefusalStatuses } from "./client-error-code-table.js";

const docPath = fileURLToPath(new URL("../../../../docs/error-codes.md", import.meta.url));
const tableStart = "<!-- error-code table: rendered from packages/core/src/errors/client-error-codes.ts -->";
const tableEnd = "<!-- end of error-code table -->";

describe("the client error-code vocabulary", () => {
  it("docs/error-codes.md carries the table as the vocabulary renders it (UPDATE_ERROR_CODES_DOC=1 rewrites it)", () => {
    const doc = readFileSync(docPath, "utf8");
    const start = doc.indexOf(tableStart);
    const end = doc.indexOf(tableEnd);
    expect(start, "docs/error-codes.md lost its table markers").toBeGreaterThanOrEqual(0);
    expect(end).toBeGreaterThan(start);
    const rendered = `${tableStart}\n${renderClientErrorCodeTable()}\n${tableEnd}`;
    const current = doc.slice(start, end + tableEnd.length);
    if (process.env["UPDATE_ERROR_CODES_DOC"] === "1" && current !== rendered) {
      writeFileSync(docPath, doc.slice(0, start) + rendered + doc.slice(end + tableEnd.length));
      return;
    }
    expect(current, "docs/error-codes.md is stale: run `pnpm docs:error-codes`").toBe(rendered);
  });

  it("answers a run refusal with an HTTP status only for codes that have one", () => {
    for (const [name, status] of Object.entries(runRefusalStatuses())) {
      expect(CLIENT_ERROR_CODES[name as keyof typeof CLIENT_ERROR_CODES].refusesRun).toBe(true);
      expect(status).toBeGreaterThanOrEqual(400);
    }
    expect(runRefusalStatuses()).not.toHaveProperty("INTERNAL_ERROR");
  });

  it("knows its own codes, model errors with a status, and nothing inherited or made up", () => {
    expect(isClientErrorCode("THREAD_BUSY")).toBe(true);
    expect(isClientErrorCode("MODEL_ERROR_429")).toBe(true);
    expect(isClientErrorCode("MODEL_ERROR_")).toBe(false);
    expect(isClientErrorCode("toString")).toBe(false);
    expect(isClientErrorCode("__proto__")).toBe(false);
    expect(isClientErrorCode("NOT_A_CODE")).toBe(false);
  });
});
