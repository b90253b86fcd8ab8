import { readFileSync } from "node:fs";
import { join } from "node:path";
import { protocolFixtureDirectory } from "./emulator-driver.js";

export interface FixtureMessage {
  direction: "client->harness" | "harness->client";
  channel: string;
  json: any;
}

const cache = new Map<string, FixtureMessage[]>();

export function fixtureMessages(file: string): FixtureMessage[] {
  let messages = cache.get(file);
  if (messages === undefined) {
    messages = (JSON.parse(readFileSync(join(protocolFixtureDirectory, file), "utf8")) as { messages: FixtureMessage[] }).messages;
    cache.set(file, messages);
  }
  return messages;
}

/** The fixture messages at the given indices, labelled for error messages. */
export function expected(file: string, ...indices: number[]): { label: string; json: unknown }[] {
  const messages = fixtureMessages(file);
  return indices.map((index) => {
    const message = messages[index];
    if (message === undefined) throw new Error(`${file}#${index} does not exist`);
    return { label: `${file}#${index}`, json: message.json };
  });
}

/** A client->harness fixture message with some fields replaced (ids the emulator chose). */
export function clientMessage(file: string, index: number, patch: (json: any) => void = () => undefined): any {
  const message = fixtureMessages(file)[index];
  if (message === undefined || message.direction !== "client->harness") throw new Error(`${file}#${index} is not a client message`);
  const copy = structuredClone(message.json);
  patch(copy);
  return copy;
}
