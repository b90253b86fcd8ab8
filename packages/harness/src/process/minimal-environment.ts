/**
 * Variables a child inherits from this process. The harness and the tools it runs need a shell-like
 * environment (paths, locale, temp dir, proxies, certificates) but nothing else: process.env also
 * holds credentials meant for other programs.
 */
export const INHERITED_ENVIRONMENT_VARIABLES: readonly string[] = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "TMPDIR",
  "TMP",
  "TEMP",
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "TERM",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  "XDG_RUNTIME_DIR",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  // Windows needs these to start anything at all.
  "SYSTEMROOT",
  "SystemRoot",
  "WINDIR",
  "COMSPEC",
  "PATHEXT",
  "APPDATA",
  "LOCALAPPDATA",
  "USERPROFILE",
  "PROGRAMDATA",
];

export interface MinimalEnvironmentOptions {
  /** The environment to inherit from (default process.env). */
  source?: NodeJS.ProcessEnv;
  /** Extra variable names to inherit beyond the allow-list. */
  inherit?: readonly string[];
  /** Variables set explicitly; they win over inherited ones. */
  overrides?: Readonly<Record<string, string>>;
}

/** The allow-listed variables of `source`, then `overrides` on top. Never the whole process.env. */
export function minimalEnvironment(options: MinimalEnvironmentOptions = {}): Record<string, string> {
  const source = options.source ?? process.env;
  const environment: Record<string, string> = {};
  for (const name of [...INHERITED_ENVIRONMENT_VARIABLES, ...(options.inherit ?? [])]) {
    const value = source[name];
    if (value !== undefined) environment[name] = value;
  }
  return { ...environment, ...options.overrides };
}
