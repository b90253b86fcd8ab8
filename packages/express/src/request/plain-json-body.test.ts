import { createServer, type Server } from "node:http";
import { connect } from "node:net";
import type { AddressInfo } from "node:net";
import type { Request, Response } from "express";
import { afterEach, describe, expect, it } from "vitest";
import { createJsonBodyReader, type JsonBodyResult } from "./json-body.js";
import { plainBodyLength } from "./plain-json-body.js";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/**
 * A server that reads each body with the binding's reader and answers with what it read. With
 * `afterAwait`, it reads as the run handler does, after an await: the socket read that brought the
 * request has been parsed whole by then, so a body that came with its headers is already buffered.
 */
async function serveReader(seen: JsonBodyResult[] = [], options: { afterAwait?: boolean; buffered?: number[] } = {}): Promise<string> {
  const read = createJsonBodyReader({ maxBodyBytes: 1024 * 1024 });
  const server = createServer(async (request, response) => {
    if (options.afterAwait === true) await Promise.resolve();
    options.buffered?.push(request.readableLength);
    void read(request as Request, response as Response).then((result) => {
      seen.push(result);
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify(result));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

async function post(url: string, body: Buffer, contentType: string): Promise<unknown> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": contentType }, body });
  return response.json();
}

describe("plain JSON bodies (read without body-parser)", () => {
  it("takes only a small, uncoded, parameterless JSON body that nothing read yet", () => {
    const request = (headers: Record<string, string>, extra: Record<string, unknown> = {}) => ({ headers, readableDidRead: false, ...extra }) as unknown as Request;
    const json = { "content-type": "application/json", "content-length": "10" };
    expect(plainBodyLength(request(json), 100)).toBe(10);
    expect(plainBodyLength(request({ ...json, "content-encoding": "IDENTITY" }), 100)).toBe(10);
    expect(plainBodyLength(request({ ...json, "content-type": "application/json; charset=utf-8" }), 100)).toBeUndefined();
    expect(plainBodyLength(request({ ...json, "content-encoding": "gzip" }), 100)).toBeUndefined();
    expect(plainBodyLength(request({ "content-type": "application/json", "transfer-encoding": "chunked" }), 100)).toBeUndefined();
    expect(plainBodyLength(request({ ...json, "content-length": "101" }), 100)).toBeUndefined();
    expect(plainBodyLength(request(json, { body: {} }), 100)).toBeUndefined();
    expect(plainBodyLength(request(json, { readableDidRead: true }), 100)).toBeUndefined();
  });

  it.each([
    ["as it arrives", false],
    ["from the buffer when it is already there", true],
  ])("reads every body as body-parser does, %s: the same value or the same refusal", async (_how, afterAwait) => {
    const url = await serveReader([], { afterAwait });
    const bodies = [
      '{"a":[1,"é",{"b":null}]}',
      "\uFEFF{\"bom\":true}",
      " \n\t[1,2]",
      "\uFEFF",
      "5",
      '"text"',
      "null",
      "{",
      "{} trailing",
      "\u00a0{}",
    ].map((text) => Buffer.from(text, "utf8"));
    bodies.push(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
    for (const body of bodies) {
      // A body also comes with the JSON text it was parsed from (run-handler checks its `threadId` key), the same both ways.
      const plain = (await post(url, body, "application/json")) as { ok: boolean; body?: unknown; text?: string };
      const parsed = await post(url, body, "application/json; charset=utf-8");
      expect(plain, JSON.stringify(body.toString("latin1"))).toEqual(parsed);
      if (plain.ok && plain.text !== undefined) expect(JSON.parse(plain.text)).toEqual(plain.body);
    }
    expect(await post(url, Buffer.from('{"ok":1}'), "application/json")).toEqual({ ok: true, body: { ok: 1 }, text: '{"ok":1}' });
  });

  it("takes a body that came with its headers from the request's buffer", async () => {
    const seen: JsonBodyResult[] = [];
    const buffered: number[] = [];
    const url = new URL(await serveReader(seen, { afterAwait: true, buffered }));
    const socket = connect(Number(url.port), "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    const body = '{"threadId":"t","messages":[]}';
    socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    await expect.poll(() => seen.length).toBe(1);
    socket.destroy();
    expect(buffered).toEqual([body.length]);
    expect(seen[0]).toEqual({ ok: true, body: { threadId: "t", messages: [] }, text: body });
  });

  it("answers a body that ends before its declared length with INVALID_JSON, and holds nothing", async () => {
    const seen: JsonBodyResult[] = [];
    const url = new URL(await serveReader(seen));
    const socket = connect(Number(url.port), "127.0.0.1");
    await new Promise<void>((resolve) => socket.once("connect", resolve));
    socket.write("POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"partial\":");
    await new Promise((resolve) => setTimeout(resolve, 20));
    socket.destroy();
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]).toEqual({ ok: false, reply: { status: 400, code: "INVALID_JSON", message: "The request body ended early." } });
  });
});
