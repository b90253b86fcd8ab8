// The container image and the compose cluster are not built in CI (deploy/README.md says why and
// gives the command); what can be checked without building them is checked here.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (path: string): string => readFileSync(new URL(path, import.meta.url), "utf8");
const dockerfile = read("../container/Dockerfile");
const compose = read("../container/compose.yaml");

describe("deploy/container", () => {
  it("Dockerfile: a build stage and a runtime stage that runs the server as the unprivileged node user, checked on /readyz", () => {
    const stages = dockerfile.split(/^FROM /m).slice(1);
    expect(stages).toHaveLength(2);
    const runtime = stages[1] ?? "";
    expect(runtime).toMatch(/^\$\{NODE_IMAGE\} AS runtime/);
    expect(runtime).toMatch(/^USER node$/m);
    // Nothing after USER switches back to root.
    expect(runtime.slice(runtime.indexOf("USER node"))).not.toMatch(/^USER (?!node$)/m);
    expect(runtime).toMatch(/^HEALTHCHECK [\s\S]*\/readyz/m);
    expect(runtime).toMatch(/^CMD \["node", "dist\/main\.js"\]$/m);
    expect(runtime).toContain("COPY --from=build");
  });

  it("Dockerfile: installs the pnpm the repository pins, from the lockfile", () => {
    const { packageManager } = JSON.parse(read("../../package.json")) as { packageManager: string };
    expect(dockerfile).toContain(`npm install -g ${packageManager}`);
    expect(dockerfile).toContain("pnpm install --frozen-lockfile");
  });

  it("compose: Redis, three replicas sharing the save volume and Redis, HAProxy on 127.0.0.1:8040 with the generated configuration", () => {
    for (const service of ["redis:", "replica-1:", "replica-2:", "replica-3:", "haproxy:"]) expect(compose).toMatch(new RegExp(`^  ${service}$`, "m"));
    for (const replica of [1, 2, 3]) expect(compose).toContain(`REPLICA_ID: replica-${replica}`);
    expect(compose).toContain("REDIS_URL: redis://redis:6379");
    // HAProxy forwards the client's address; the replicas believe it only from the private network.
    expect(compose).toContain("TRUST_PROXY: uniquelocal");
    expect(compose).toContain("- save:/data/save");
    expect(compose).toContain("- ./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro");
    expect(compose).toContain('"127.0.0.1:8040:8040"');
  });
});
