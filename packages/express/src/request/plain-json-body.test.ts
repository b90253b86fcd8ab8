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

/** A server that reads each body with the binding's reader and answers with what it read. */
async function serveReader(seen: JsonBodyResult[] = []): Promise<string> {
  const read = createJsonBodyReader({ maxBodyBytes: 1024 * 1024 });
  const server = createServer((request, response) => {
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

  it("reads every body as body-parser does: the same value or the same refusal", async () => {
    const url = await serveReader();
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
      const plain = await post(url, body, "application/json");
      const parsed = await post(url, body, "application/json; charset=utf-8");
      expect(plain, JSON.stringify(body.toString("latin1"))).toEqual(parsed);
    }
    expect(await post(url, Buffer.from('{"ok":1}'), "application/json")).toEqual({ ok: true, body: { ok: 1 } });
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
