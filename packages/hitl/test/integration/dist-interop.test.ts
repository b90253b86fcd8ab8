import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const distDirectory = fileURLToPath(new URL("../../dist/", import.meta.url));

/*
 * Vitest's resolver hides CJS/ESM interop mistakes, so the built files are loaded by plain Node. The
 * bridge from one build must find a server tool scope entered by the other (the store is shared
 * through a registry symbol), and errors must be recognised across builds.
 */
const script = `
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const commonJs = require(${JSON.stringify(`${distDirectory}index.cjs`)});
const esm = await import(${JSON.stringify(`${distDirectory}index.js`)});
const bridge = new esm.HitlBridge({
  serverTools: [{ name: "probe", description: "probe", parameters: { type: "object" }, handler: () => ({ context: commonJs.getContext() }) }],
});
const [probe] = bridge.harnessPieces([]).customTools;
const result = await probe.handler({}, { callId: "c", toolName: "probe", conversationId: "x", signal: new AbortController().signal });
let outside;
try { commonJs.getState(); } catch (error) { outside = esm.HitlError.isInstance(error) && error.code; }
console.log(JSON.stringify({ result, outside, exports: Object.keys(commonJs).sort().join(",") === Object.keys(esm).sort().join(",") }));
`;

describe("the built package under plain Node", () => {
  it("loads as ESM and CJS, and the two builds share the server tool scope and the error brand", async () => {
    const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], { timeout: 20_000 });
    expect(JSON.parse(stdout)).toEqual({ result: { context: [] }, outside: "NOT_IN_SERVER_TOOL", exports: true });
  });
});
