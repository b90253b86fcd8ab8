import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { createFileOnce } from "./create-file-once.js";

const made: string[] = [];
afterEach(async () => {
  for (const directory of made.splice(0)) await rm(directory, { recursive: true, force: true });
});

it("creates the file (and its directory) once: of many concurrent callers exactly one wins, and no temporary file is left", async () => {
  const directory = await mkdtemp(join(tmpdir(), "create-file-once-"));
  made.push(directory);
  const path = join(directory, "nested", "owner.json");
  const outcomes = await Promise.all(Array.from({ length: 20 }, (_, index) => createFileOnce(path, `caller ${index}`, { mode: 0o600 })));
  expect(outcomes.filter(Boolean)).toHaveLength(1);
  expect(await readFile(path, "utf8")).toBe(`caller ${outcomes.indexOf(true)}`);
  expect((await stat(path)).mode & 0o777).toBe(0o600);
  expect(await readdir(join(directory, "nested"))).toEqual(["owner.json"]);
  expect(await createFileOnce(path, "later")).toBe(false);
  expect(await readFile(path, "utf8")).toBe(`caller ${outcomes.indexOf(true)}`);
});
