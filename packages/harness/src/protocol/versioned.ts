import { z } from "zod/v4";
import type { VersionRange } from "./harness-versions.js";

/*
 * Which harness releases each part of a schema belongs to. The schemas in `messages.ts` describe
 * every release at once (so a newer harness's frames parse); these annotations let `strict-check.ts`
 * narrow them to one release, the way that release's parser (Go protojson) sees its own messages.
 */

const rangeBySchema = new WeakMap<z.ZodType, VersionRange>();
const alternativesBySchema = new WeakMap<z.ZodType, readonly VersionedAlternative[]>();
const oneofsBySchema = new WeakMap<z.ZodType, readonly (readonly string[])[]>();

/** One of the JSON shapes a field took over the releases. */
export interface VersionedAlternative {
  readonly range: VersionRange;
  readonly schema: z.ZodType;
}

/**
 * A field that exists only in the releases of `range`. The range is kept on a fresh optional
 * wrapper (every field is optional anyway), so a schema reused elsewhere (say `PreToolArgs`, or an
 * enum field's registered names) is left as it is and carries the range only where it is declared.
 *
 * @example
 * agentBehavior: inReleases({ since: "0.1.11" }, enumField(AGENT_BEHAVIOR_VALUES)),
 */
export function inReleases<Schema extends z.ZodType>(range: VersionRange, schema: Schema): z.ZodOptional<Schema> {
  const wrapper = z.optional(schema);
  rangeBySchema.set(wrapper, range);
  return wrapper;
}

/** A field that appeared in `version`. */
export function since<Schema extends z.ZodType>(version: string, schema: Schema): z.ZodOptional<Schema> {
  return inReleases({ since: version }, schema);
}

/** A field that was removed in `version` (it exists in every earlier release). */
export function until<Schema extends z.ZodType>(version: string, schema: Schema): z.ZodOptional<Schema> {
  return inReleases({ until: version }, schema);
}

/**
 * A field schema without its optional wrappers, and the releases it was declared for (undefined
 * when it exists in all of them).
 */
export function unwrapField(schema: z.ZodType): { inner: z.ZodType; range: VersionRange | undefined } {
  let current = schema;
  let range: VersionRange | undefined;
  while (current instanceof z.ZodOptional) {
    range ??= rangeBySchema.get(current);
    current = current.unwrap() as z.ZodType;
  }
  return { inner: current, range };
}

/**
 * Registers that `union` is a field whose JSON type changed between releases (each alternative with
 * its releases), so a strict check of one release accepts only that release's shape.
 */
export function registerAlternatives<Schema extends z.ZodType>(union: Schema, alternatives: readonly VersionedAlternative[]): Schema {
  alternativesBySchema.set(union, alternatives);
  return union;
}

/** The per-release shapes of a field, when it has several. */
export function alternativesOf(schema: z.ZodType): readonly VersionedAlternative[] | undefined {
  return alternativesBySchema.get(schema);
}

/** Registers a message's oneof groups: at most one field of each group may be set. */
export function registerOneofs<Schema extends z.ZodType>(schema: Schema, oneofs: readonly (readonly string[])[]): Schema {
  oneofsBySchema.set(schema, oneofs);
  return schema;
}

/** A message's oneof groups (field JSON names). */
export function oneofsOf(schema: z.ZodType): readonly (readonly string[])[] {
  return oneofsBySchema.get(schema) ?? [];
}
