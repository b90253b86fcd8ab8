import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

/** One captured message of a fixture file (fixtures/protocol/, described in docs/protocol.md). */
export interface FixtureMessage {
  direction: "client->harness" | "harness->client";
  channel: string;
  provenance: string;
  sourceRef: string;
  note?: string;
  json: Record<string, unknown>;
}

export interface FixtureFile {
  name: string;
  messages: FixtureMessage[];
}

/** The repository's `fixtures/protocol` directory, resolved from this file so any working directory works. */
export const protocolFixturesDirectory = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../fixtures/protocol",
);

export function loadFixture(name: string): FixtureFile {
  const parsed = JSON.parse(readFileSync(path.join(protocolFixturesDirectory, `${name}.json`), "utf8")) as {
    messages: FixtureMessage[];
  };
  return { name, messages: parsed.messages };
}

export function loadAllFixtures(): FixtureFile[] {
  return readdirSync(protocolFixturesDirectory)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => loadFixture(file.slice(0, -".json".length)));
}

/** WebSocket messages of a fixture in one direction, with their index in the file. */
export function wsMessages(fixture: FixtureFile, direction: FixtureMessage["direction"]): [number, FixtureMessage][] {
  return fixture.messages
    .map((message, index): [number, FixtureMessage] => [index, message])
    .filter(([, message]) => message.channel === "ws" && message.direction === direction);
}
