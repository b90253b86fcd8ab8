import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { FileThreadStore } from "@ag-ui-antigravity/agent";
import { expectClosesOnce } from "@ag-ui-antigravity/testing";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createStateStores } from "./state-stores.js";

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

describe("createStateStores", () => {
  it("memory: close() aborts signal, is idempotent and resolves closed", async () => {
    const stores = await createStateStores({}, pino({ level: "silent" }));
    await expectClosesOnce(stores, () => stores.close());
  });

  it("SAVE_DIR: closing them closes the file thread store (records, owners and transcripts in one place), once", async () => {
    const saveDir = mkdtempSync(join(tmpdir(), "agd-stores-"));
    directories.push(saveDir);
    const stores = await createStateStores({ saveDir }, pino({ level: "silent" }));
    expect(stores.kind).toBe("file");
    await expectClosesOnce(stores, () => stores.close());
    const threadStore = stores.threadStore as FileThreadStore;
    expect(threadStore.signal.aborted).toBe(true);
    await threadStore.closed;
  });
});
