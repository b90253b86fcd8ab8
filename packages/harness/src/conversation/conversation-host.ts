import type { Logger } from "@ag-ui-antigravity/foundation";
import type { Redactor } from "../observability/redactor.js";
import type { WireTap } from "../observability/wire-tap.js";
import type { HarnessError } from "../errors/harness-error.js";
import type { HarnessDialect } from "../protocol/dialect.js";
import type { DriftRegistry } from "../protocol/drift.js";

/** What a conversation needs from the process that hosts it. */
export interface ConversationHost {
  readonly port: number;
  /** The per-process token presented as `x-goog-api-key` (never a Gemini key). */
  readonly harnessToken: string;
  readonly logger: Logger;
  readonly redactor: Redactor;
  readonly wireTap: WireTap;
  readonly drift: DriftRegistry;
  /** How to speak to this process's harness release. */
  readonly dialect: HarnessDialect;
  /** Aborted (with a CONNECTION_CLOSED HarnessError) when the process exits or closes. */
  readonly signal: AbortSignal;
  /** Resolves once the process has exited (or immediately if it has). */
  readonly exited: Promise<unknown>;
  /** The environment the host was configured with (InputConfig.env); GEMINI_API_KEY may come from here. */
  readonly configuredEnvironment: Readonly<Record<string, string>>;
  stderrTail(): string[];
  /** A frame was sent; `onSkew` is told if the harness says on stderr that it cannot parse it (PROTOCOL_SKEW). */
  noteSent(text: string, onSkew: (error: HarnessError) => void): void;
  /** Called once by a conversation when it has finished closing. */
  forgetConversation(conversation: object): void;
}
