import { toGenaiStruct } from "./genai-struct.js";
import { compareHarnessVersions, dialectOf, protocolVersionFor, type KnownHarnessVersion, type ProtocolDialect } from "./harness-versions.js";
import type { InputEvent, PreToolResult, UserInput } from "./messages.js";

/** One part of a turn's input, in wire form (media data already base64). */
export type WireUserInputPart = NonNullable<UserInput["parts"]>[number];

/**
 * How to speak to one harness release: the frames whose shape changed between releases are built
 * here (docs/protocol.md, "Versions"); `checkWireMessage(kind, frame, dialect.version)` tells what
 * that release's parser would refuse. One per harness process. It loads no message schema.
 *
 * @example
 * const dialect = new HarnessDialect("0.1.18");
 * dialect.dialect; // "0.1.18"
 * dialect.isAtLeast("0.1.17"); // true
 */
export class HarnessDialect {
  /** The release whose protocol is spoken: the harness's own version when known, else the nearest known. */
  readonly version: KnownHarnessVersion;
  /** The first release of its dialect (where the shapes it sends last changed). */
  readonly dialect: ProtocolDialect;

  constructor(harnessVersion: string) {
    this.version = protocolVersionFor(harnessVersion);
    this.dialect = dialectOf(this.version);
  }

  /** True when the spoken release is `version` or newer. */
  isAtLeast(version: string): boolean {
    return compareHarnessVersions(this.version, version) >= 0;
  }

  /**
   * @internal The conversation builds its frames with it; the wire types are `./protocol`'s.
   *
   * The frame that starts a turn. From 0.1.11 always `userInput{parts}`; up to 0.1.10 plain text goes
   * as the `userInput` string (the harness wraps it into one text part itself) and anything else as
   * `complexUserInput`.
   */
  turnInput(parts: readonly WireUserInputPart[]): InputEvent {
    if (this.isAtLeast("0.1.11")) return { userInput: { parts: [...parts] } };
    const only = parts.length === 1 ? parts[0] : undefined;
    if (only !== undefined && typeof only.text === "string" && only.text !== "" && Object.keys(only).length === 1) return { userInput: only.text };
    return { complexUserInput: { parts: [...parts] } };
  }

  /** @internal A pre-tool hook's allow, with edited arguments when there are any: a genai.Struct from 0.1.17, JSON text before. */
  preToolAllow(modifiedArguments: Record<string, unknown> | undefined): PreToolResult {
    if (modifiedArguments === undefined) return { decision: "ALLOW", reason: "" };
    return this.isAtLeast("0.1.17")
      ? { decision: "ALLOW", reason: "", modifiedArgs: toGenaiStruct(modifiedArguments) }
      : { decision: "ALLOW", reason: "", modifiedArgumentsJson: JSON.stringify(modifiedArguments) };
  }
}
