import { basename, extname } from "node:path";

const REDACTED = "[redacted]";
/** Secrets shorter than this are not scrubbed from free text: replacing "abc" everywhere would garble it. */
const MIN_SECRET_LENGTH = 8;
/** Upstream text quoted to a client is cut here; the whole of it is in the server log. */
const MAX_OUTBOUND_LENGTH = 1_000;

// `key=…`, `api_key=…`, `token=…`, `access_token=…` in a URL or a sentence.
const secretParameter = /([?&;\s"'(]|^)((?:api[_-]?)?key|(?:access[_-]?)?token|sig|signature|password)=([^&\s"'),;]+)/gi;
// Google API keys are recognisable by shape even when we were never told them.
const googleApiKey = /AIza[0-9A-Za-z_-]{35}/g;
// `Bearer …` credentials quoted from a request.
const bearer = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
// A stack frame line (`    at fn (/abs/file.js:1:2)`), or a Go one (`\t/abs/file.go:42 +0x1d`).
const stackFrame = /\n[ \t]*(?:at [^\n]*|[^\n]*\.go:\d+[^\n]*|goroutine \d+[^\n]*)/g;
// An absolute POSIX or Windows path of at least two segments; a URL's path is not one (preceded by a host).
const absolutePath = /(^|[\s"'(=:,[])((?:\/(?:[\w.@+~-]+))(?:\/[\w.@+~-]+)+\/?|[A-Za-z]:\\(?:[\w.@+~ -]+\\?)+)/g;

/**
 * The one pass every text leaving the agent for a client goes through (RUN_ERROR messages, and
 * what other layers forward of them). Removes the API keys it was told about (the agent's config and
 * the environment's), `key=` / `token=` parameters, anything shaped like a Google API key or a bearer
 * credential, stack frames and absolute paths, and cuts what remains to a readable length.
 */
export class OutboundRedactor {
  readonly #secrets: string[];

  constructor(secrets: ReadonlyArray<string | undefined>) {
    this.#secrets = [...new Set(secrets.filter((secret): secret is string => secret !== undefined && secret.length >= MIN_SECRET_LENGTH))];
  }

  /** The secrets the environment holds for a Gemini agent, by the names the harness reads. */
  static fromEnvironment(extra: ReadonlyArray<string | undefined>, env: NodeJS.ProcessEnv = process.env): OutboundRedactor {
    return new OutboundRedactor([...extra, env.GEMINI_API_KEY, env.GOOGLE_API_KEY, env.GOOGLE_GENAI_API_KEY]);
  }

  text(text: string): string {
    let result = text;
    for (const secret of this.#secrets) {
      if (result.includes(secret)) result = result.split(secret).join(REDACTED);
    }
    result = result
      .replace(stackFrame, "")
      .replace(secretParameter, (_match, before: string, name: string) => `${before}${name}=${REDACTED}`)
      .replace(googleApiKey, REDACTED)
      .replace(bearer, `$1 ${REDACTED}`)
      .replace(absolutePath, (_match, before: string) => `${before}[path]`);
    return result.length > MAX_OUTBOUND_LENGTH ? `${result.slice(0, MAX_OUTBOUND_LENGTH)}…` : result;
  }
}

/**
 * What a model name says to a client: `emulator:/abs/path/demo.json` names a scenario file on the
 * server, so only its name (`emulator:demo`) is shown.
 */
export function publicModelName(model: string): string {
  if (!model.startsWith("emulator:")) return model;
  const scenario = model.slice("emulator:".length);
  return `emulator:${basename(scenario, extname(scenario))}`;
}
