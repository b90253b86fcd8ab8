import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { servicesRequired } from "@ag-ui-antigravity/testing";
import { describe, expect, it } from "vitest";
import { renderHaproxyConfig } from "./haproxy-config.js";
import { findExecutable } from "./system-packages.js";

const defaultServers = [1, 2, 3].map((index) => ({ name: `replica-${index}`, host: "127.0.0.1", port: 8040 + index }));
const haproxy = findExecutable("haproxy");

describe("the HAProxy configuration", () => {
  it("checked in as deploy/haproxy/haproxy.cfg is the generator's output for the default cluster", () => {
    const checkedIn = readFileSync(new URL("../haproxy/haproxy.cfg", import.meta.url), "utf8");
    expect(checkedIn).toBe(renderHaproxyConfig({ bindHost: "127.0.0.1", bindPort: 8040, servers: defaultServers }));
  });

  it("checked in as deploy/container/haproxy.cfg is the generator's output for the compose cluster, resolving replica names at run time", () => {
    const checkedIn = readFileSync(new URL("../container/haproxy.cfg", import.meta.url), "utf8");
    const servers = [1, 2, 3].map((index) => ({ name: `replica-${index}`, host: `replica-${index}`, port: 8027 }));
    expect(checkedIn).toBe(renderHaproxyConfig({ bindHost: "0.0.0.0", bindPort: 8040, servers, resolveAtRuntime: true }));
    expect(checkedIn).toContain("init-addr libc,none");
  });

  it("routes by the thread header, then the body's threadId, with consistent hashing and health checks", () => {
    const config = renderHaproxyConfig({ bindHost: "127.0.0.1", bindPort: 9000, servers: defaultServers.slice(0, 1) });
    expect(config).toContain("bind 127.0.0.1:9000");
    expect(config).toContain("server replica-1 127.0.0.1:8041");
    expect(config).toMatch(/req\.fhdr\(x-ag-ui-thread-id\)[\s\S]*json_query\('\$\.threadId'\)[\s\S]*regsub/);
    expect(config).toContain("hash-type consistent");
    expect(config).toContain("option httpchk GET /readyz");
    expect(config).toContain("option http-buffer-request");
  });

  it.skipIf(haproxy === undefined && !servicesRequired())(`is accepted by haproxy -c${haproxy === undefined ? " (skipped: no haproxy binary; apt-get install -y haproxy)" : ""}`, () => {
    const directory = mkdtempSync(join(tmpdir(), "haproxy-config-"));
    try {
      const path = join(directory, "haproxy.cfg");
      writeFileSync(path, renderHaproxyConfig({ bindHost: "127.0.0.1", bindPort: 8040, servers: defaultServers }));
      const check = spawnSync(haproxy ?? "haproxy", ["-c", "-f", path], { encoding: "utf8" });
      expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
      // The compose one names replicas no DNS here knows: it must still be accepted (resolved at run time).
      const composePath = join(directory, "compose-haproxy.cfg");
      writeFileSync(composePath, readFileSync(new URL("../container/haproxy.cfg", import.meta.url), "utf8"));
      const composeCheck = spawnSync(haproxy ?? "haproxy", ["-c", "-f", composePath], { encoding: "utf8" });
      expect(composeCheck.status, `${composeCheck.stdout}${composeCheck.stderr}`).toBe(0);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
