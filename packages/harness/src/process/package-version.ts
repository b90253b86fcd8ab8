/** Sent as ClientInfo.version; kept in step with package.json by a unit test. */
export const HARNESS_PACKAGE_VERSION = "0.1.0";
