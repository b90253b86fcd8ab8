import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fixturesDir } from "./paths.js";

export type FixtureDirection = "client->harness" | "harness->client";

export interface FixtureMessage {
  direction: FixtureDirection;
  channel: "ws" | "stdin" | "stdout" | "ws-upgrade";
  provenance: "test-asserted" | "converted" | "reconstructed";
  sourceRef: string;
  note?: string;
  json: Record<string, unknown>;
}

export interface ProtocolFixture {
  name: string;
  source: string;
  description: string;
  harnessVersion: string;
  notes?: string[];
  messages: FixtureMessage[];
}

const protocolDir = join(fixturesDir, "protocol");

/** Names of every captured protocol flow in fixtures/protocol (without `.json`). */
export function protocolFixtureNames(): string[] {
  return readdirSync(protocolDir)
    .filter((file) => file.endsWith(".json"))
    .map((file) => file.slice(0, -".json".length))
    .sort();
}

/** Loads one captured protocol flow, e.g. `loadProtocolFixture("plain_text_turn")`. */
export function loadProtocolFixture(name: string): ProtocolFixture {
  const parsed = JSON.parse(readFileSync(join(protocolDir, `${name}.json`), "utf8")) as Omit<ProtocolFixture, "name">;
  return { name, ...parsed };
}
