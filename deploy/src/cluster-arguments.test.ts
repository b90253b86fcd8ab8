import { describe, expect, it } from "vitest";
import { ClusterArgumentError, parseClusterArguments } from "./cluster-arguments.js";

describe("pnpm cluster arguments", () => {
  it("defaults to 3 replicas on port 8040", () => {
    expect(parseClusterArguments([], {})).toEqual({ replicas: 3, port: 8040 });
  });

  it("reads --replicas N, --replicas=N and CLUSTER_PORT", () => {
    expect(parseClusterArguments(["--replicas", "5"], { CLUSTER_PORT: "9000" })).toEqual({ replicas: 5, port: 9000 });
    expect(parseClusterArguments(["--", "--replicas=1"], {})).toEqual({ replicas: 1, port: 8040 });
  });

  it.each([[["--replicas", "0"]], [["--replicas", "many"]], [["--replicas"]], [["--replicas="]], [["--workers", "2"]]])("refuses %j", (argv) => {
    expect(() => parseClusterArguments(argv, {})).toThrow(ClusterArgumentError);
  });

  it("refuses a CLUSTER_PORT that is not a port", () => {
    expect(() => parseClusterArguments([], { CLUSTER_PORT: "http" })).toThrow(/CLUSTER_PORT/);
  });
});
