import { describe, expect, it } from "vitest";
import { ClusterArgumentError, parseClusterArguments } from "./cluster-arguments.js";

describe("pnpm cluster arguments", () => {
  it("defaults to 3 replicas on port 8040, logs in a folder of its own", () => {
    expect(parseClusterArguments([], {})).toEqual({ replicas: 3, port: 8040, logDirectory: undefined });
  });

  it("reads --replicas N, --replicas=N, --logs DIR and CLUSTER_PORT", () => {
    expect(parseClusterArguments(["--replicas", "5"], { CLUSTER_PORT: "9000" })).toEqual({ replicas: 5, port: 9000, logDirectory: undefined });
    expect(parseClusterArguments(["--", "--replicas=1", "--logs", "logs"], {}, "/work")).toEqual({ replicas: 1, port: 8040, logDirectory: "/work/logs" });
  });

  it.each([[["--replicas", "0"]], [["--replicas", "many"]], [["--replicas"]], [["--replicas="]], [["--workers", "2"]], [["--logs", " "]], [["extra"]]])("refuses %j", (argv) => {
    expect(() => parseClusterArguments(argv, {})).toThrow(ClusterArgumentError);
  });

  it("names an unknown option and where the usage is", () => {
    expect(() => parseClusterArguments(["--workers", "2"], {})).toThrow(/--workers.*pnpm cluster --help/);
  });

  it("refuses a CLUSTER_PORT that is not a port", () => {
    expect(() => parseClusterArguments([], { CLUSTER_PORT: "http" })).toThrow(/CLUSTER_PORT/);
  });
});
