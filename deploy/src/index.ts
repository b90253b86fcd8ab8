export { startCluster, defaultClusterPort, defaultReplicaCount } from "./cluster.js";
export type { Cluster, ClusterOptions, ClusterReplica } from "./cluster.js";
export { renderHaproxyConfig, THREAD_ID_HEADER } from "./haproxy-config.js";
export type { HaproxyBackendServer, HaproxyConfigOptions } from "./haproxy-config.js";
export { parseClusterArguments } from "./cluster-arguments.js";
