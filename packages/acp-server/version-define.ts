// One reading of package.json's version, for the build's and the tests' `define`.
import { readFileSync } from "node:fs";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

export const versionDefine = { __ACP_SERVER_VERSION__: JSON.stringify(version) };
