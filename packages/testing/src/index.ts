export { repoRoot, emulatorBinPath, fixturesDir } from "./paths.js";
export { protocolFixtureNames, loadProtocolFixture } from "./protocol-fixtures.js";
export type { ProtocolFixture, FixtureMessage, FixtureDirection } from "./protocol-fixtures.js";
export { activeHandleCounts, childPidsOf, descendantPids, isProcessAlive, expectNoChildProcesses, expectNoActiveHandles } from "./leaks.js";
export { listenOnEphemeralPort } from "./http-server.js";
export type { EphemeralServer } from "./http-server.js";
export { findRedisServer, redisSkipReason, servicesRequired, startRedisServer } from "./redis-server.js";
export type { RedisServer } from "./redis-server.js";
