import { z } from "zod/v4";
import { registerOneofs } from "../versioned.js";
import { bytesField, doubleField } from "../wire-types.js";

/*
 * What the client and harness messages share: the message builder, maps, genai.Struct, media and
 * the user input parts. The whole field reference is docs/protocol.md ("Messages") plus these files.
 */

/**
 * A message: a loose object whose every field is optional (edition-2024 presence: unset fields are
 * absent), unknown fields kept. `oneofs` names the groups of fields of which at most one may be set;
 * parsing what the harness sends does not enforce them, the strict check of what we send does.
 */
export function message<Shape extends z.ZodRawShape>(shape: Shape, options: { oneofs?: readonly (readonly (keyof Shape & string)[])[] } = {}) {
  const schema = z.looseObject(shape).partial();
  return options.oneofs === undefined ? schema : registerOneofs(schema, options.oneofs);
}

export const stringMap = z.record(z.string(), z.string());

/** A presence-only marker message (`{}`), e.g. `compaction`, `invokeSubagent`, `toolConfirmationRequest`. */
export const markerMessage = () => message({});

// ---------------------------------------------------------------- genai.Struct (content.proto)

/** genai.Value: one JSON value in the verbose form (not google.protobuf.Value). */
export interface GenaiValue {
  /** Set when the value is JSON null (`"NULL_VALUE"`, or 0 or null as protobuf JSON allows); at most one member is set. */
  nullValue?: string | number | null | undefined;
  /** A JSON number; the strings `"NaN"`, `"Infinity"` and `"-Infinity"` stand for the non-finite ones. */
  numberValue?: number | string | undefined;
  /** A JSON string. */
  stringValue?: string | undefined;
  /** A JSON boolean. */
  boolValue?: boolean | undefined;
  /** A JSON object. */
  structValue?: GenaiStruct | undefined;
  /** A JSON array: its items in order under `values`. */
  listValue?: { values?: GenaiValue[] | undefined } | undefined;
  /** A genai.Content, which no message of this protocol carries; kept as sent. */
  contentValue?: unknown;
  /** Fields this client does not know, kept as sent (and counted as drift). */
  [unknownField: string]: unknown;
}

/** genai.Struct: a JSON object as `{fields: [{name, value}]}`, the form `toolCall.arguments` and `preToolResult.modifiedArgs` take. */
export interface GenaiStruct {
  /** The object's members, in order: each a `name` and its `value` (one missing either is skipped when read). */
  fields?: { name?: string | undefined; value?: GenaiValue | undefined; [unknownField: string]: unknown }[] | undefined;
  /** Fields this client does not know, kept as sent (and counted as drift). */
  [unknownField: string]: unknown;
}

const valueKinds = ["nullValue", "numberValue", "stringValue", "boolValue", "structValue", "listValue", "contentValue"] as const;

export const GenaiValueSchema: z.ZodType<GenaiValue> = message(
  {
    nullValue: z.union([z.string(), z.number(), z.null()]),
    numberValue: doubleField,
    stringValue: z.string(),
    boolValue: z.boolean(),
    structValue: z.lazy(() => GenaiStructSchema),
    listValue: z.lazy(() => GenaiListValueSchema),
    // genai.Content, which no message of ours carries; kept as sent.
    contentValue: z.unknown(),
  },
  { oneofs: [valueKinds] },
);
const GenaiListValueSchema = message({ values: z.array(GenaiValueSchema) });
export const GenaiStructSchema: z.ZodType<GenaiStruct> = message({
  fields: z.array(message({ name: z.string(), value: GenaiValueSchema })),
});

// ---------------------------------------------------------------- media and user input

export const MediaSchema = message({ mimeType: z.string(), description: z.string(), data: bytesField });

export const UserInputSchema = message({
  parts: z.array(
    message(
      {
        text: z.string(),
        media: MediaSchema,
        slashCommand: message({ name: z.string() }),
      },
      { oneofs: [["text", "media", "slashCommand"]] },
    ),
  ),
});

export type Media = z.infer<typeof MediaSchema>;
export type UserInput = z.infer<typeof UserInputSchema>;
