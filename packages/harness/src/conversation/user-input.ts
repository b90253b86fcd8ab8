import { z } from "zod/v4";
import { HarnessError } from "../errors/harness-error.js";
import type { HarnessDialect } from "../protocol/dialect.js";
import type { InputEvent } from "../protocol/messages.js";

/** One part of a multimodal user message. */
export type UserInputPart =
  | { text: string }
  | { media: { mimeType: string; data: Uint8Array | string; description?: string } }
  | { slashCommand: string };

const userInputPartSchema = z.union([
  z.object({ text: z.string() }).strict(),
  z
    .object({
      media: z
        .object({
          mimeType: z.string().regex(/^[\w.+-]+\/[\w.+-]+$/, "expected a MIME type such as image/png"),
          data: z.union([z.instanceof(Uint8Array), z.string().regex(/^[A-Za-z0-9+/_-]*={0,2}$/, "expected base64")]),
          description: z.string().optional(),
        })
        .strict(),
    })
    .strict(),
  z.object({ slashCommand: z.string().min(1) }).strict(),
]);

const userInputSchema = z.union([z.string(), z.array(userInputPartSchema).min(1, "give at least one part")]);

/**
 * The InputEvent that starts a turn, in the shape the harness's release takes (`HarnessDialect.
 * turnInput`, docs/protocol.md "Messages"). Throws CONFIG_INVALID for parts that are not valid.
 */
export function userInputEvent(input: string | readonly UserInputPart[], dialect: HarnessDialect): InputEvent {
  // The common chat turn, recognised without the schema walk (which accepts every string and every
  // plain `{ text: string }` part alike).
  if (typeof input === "string") return dialect.turnInput([{ text: input }]);
  const loneText = loneTextOf(input);
  if (loneText !== undefined) return dialect.turnInput([{ text: loneText }]);
  const parsed = userInputSchema.safeParse(input);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => `${issue.path.map(String).join(".") || "(input)"}: ${issue.message}`);
    throw new HarnessError("CONFIG_INVALID", `invalid turn input: ${details.join("; ")}`, { cause: parsed.error });
  }
  const value = parsed.data;
  if (typeof value === "string") return dialect.turnInput([{ text: value }]);
  return dialect.turnInput(
    value.map((part) => {
      if ("text" in part) return { text: part.text };
      if ("slashCommand" in part) return { slashCommand: { name: part.slashCommand } };
      const data = typeof part.media.data === "string" ? part.media.data : Buffer.from(part.media.data).toString("base64");
      return { media: { mimeType: part.media.mimeType, data, ...(part.media.description === undefined ? {} : { description: part.media.description }) } };
    }),
  );
}
/** The text of parts that are exactly one non-empty `{ text }` plain object, else undefined. */
function loneTextOf(parts: readonly UserInputPart[]): string | undefined {
  if (!Array.isArray(parts) || parts.length !== 1) return undefined;
  const part: unknown = parts[0];
  if (typeof part !== "object" || part === null || Object.getPrototypeOf(part) !== Object.prototype) return undefined;
  const text = (part as { text?: unknown }).text;
  if (typeof text !== "string" || text === "") return undefined;
  for (const key in part) if (key !== "text") return undefined;
  return text;
}
