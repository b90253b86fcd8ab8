import packageJson from "../../package.json" with { type: "json" };

/** Sent as ClientInfo.version; read from package.json so a release bump cannot leave it behind. */
export const HARNESS_PACKAGE_VERSION: string = packageJson.version;
