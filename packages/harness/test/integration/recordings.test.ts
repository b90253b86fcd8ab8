import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, it } from "vitest";
import { EmulatorFixture } from "../support/emulator.js";
import { driveRecording, recordingProtocol } from "../support/replay-driver.js";

/**
 * Every recording under fixtures/recordings/ (docs/protocol.md, "Contributing a recording") is a
 * regression test: the emulator plays it back and the client must send exactly what was recorded.
 */
const RECORDINGS = fileURLToPath(new URL("../../../../fixtures/recordings/", import.meta.url));

function recordingsUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return recordingsUnder(path);
    return entry.isFile() && entry.name.endsWith(".jsonl") ? [path] : [];
  });
}

const recordings = recordingsUnder(RECORDINGS).sort();
const fixture = new EmulatorFixture();
beforeEach(() => fixture.begin());
afterEach(() => fixture.end());

describe("recorded sessions replay against the client", () => {
  if (recordings.length === 0) it.skip("(skipped: fixtures/recordings/ holds no .jsonl recording)", () => undefined);
  for (const path of recordings) {
    it(`replays ${relative(RECORDINGS, path)}`, async () => {
      // The client speaks the release the recording was made with, or it would not send what was recorded.
      const harness = await fixture.start({ harnessVersion: recordingProtocol(path), env: { ANTIGRAVITY_EMULATOR_REPLAY: path } });
      await driveRecording(harness, path);
    }, 60_000);
  }
});
