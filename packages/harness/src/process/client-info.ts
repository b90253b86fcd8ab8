import { release } from "node:os";
import type { ClientInfo } from "../protocol/handshake.js";
import { HARNESS_PACKAGE_VERSION } from "./package-version.js";

/** How this client introduces itself in InputConfig.clientInfo. */
export function typescriptClientInfo(): ClientInfo {
  return {
    language: "typescript",
    version: HARNESS_PACKAGE_VERSION,
    languageVersion: process.versions.node,
    os: process.platform === "win32" ? "windows" : process.platform,
    osVersion: release(),
  };
}
