#!/usr/bin/env node
// The protocol catalogue's view of one harness release, for python_sdk_check.py to compare with
// the official SDK's own descriptor of that release (see README.md beside this file).
//
//   node catalogue-probe.mjs <version>   →   JSON on stdout: [{ path, enumNames? }, ...]
//
// Every field path the schemas of @ag-ui-antigravity/harness/protocol know is probed with
// checkWireMessage: a path is listed when some value of it passes that release's check; an enum
// field also lists which known enum names pass. Paths are the message kind, then JSON field names
// (lists add nothing, map values add `*`); a message met again inside itself is not walked twice.
import * as protocol from "@ag-ui-antigravity/harness/protocol";
import { z } from "zod/v4";

const version = process.argv[2];
if (version === undefined) {
  process.stderr.write("usage: node catalogue-probe.mjs <harness version>\n");
  process.exit(2);
}

const roots = {
  InitializeConversationEvent: protocol.InitializeConversationEventSchema,
  InputEvent: protocol.InputEventSchema,
  OutputEvent: protocol.OutputEventSchema,
};
const candidateValues = [{}, 1, "1", "x", true, "AA=="];
const enumCandidates = [...new Set(Object.entries(protocol).filter(([name, value]) => name.endsWith("_VALUES") && Array.isArray(value)).flatMap(([, value]) => value))];
const notAName = "NOT_A_NAME_OF_ANY_ENUM";

function unwrap(schema) {
  let current = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable) current = current.unwrap();
    else if (current instanceof z.ZodLazy) current = current.unwrap();
    else return current;
  }
}

const clean = (kind, frame) => protocol.checkWireMessage(kind, frame, version).length === 0;

const entries = [];

/** Probes the field at `path`, whose value `wrap` places in a frame of `kind`, then walks into it. */
function probe(kind, path, schema, wrap, stack) {
  let inner = unwrap(schema);
  let place = wrap;
  if (inner instanceof z.ZodArray) {
    place = (value) => wrap([value]);
    inner = unwrap(inner.element);
  }
  const accepted = candidateValues.some((value) => inner.safeParse(value).success && clean(kind, place(value)));
  if (!accepted) return;
  const entry = { path: path.join(".") };
  const refusal = protocol.checkWireMessage(kind, place(notAName), version)[0];
  if (refusal?.kind === "enum-value") entry.enumNames = enumCandidates.filter((name) => clean(kind, place(name)));
  entries.push(entry);
  walkInto(kind, path, inner, place, stack);
}

function walkInto(kind, path, inner, place, stack) {
  if (inner instanceof z.ZodObject) {
    if (stack.includes(inner)) return;
    for (const [name, field] of Object.entries(inner.shape)) probe(kind, [...path, name], field, (value) => place({ [name]: value }), [...stack, inner]);
  } else if (inner instanceof z.ZodUnion) {
    for (const option of inner.options) {
      const unwrapped = unwrap(option);
      if (unwrapped instanceof z.ZodObject) walkInto(kind, path, unwrapped, place, stack);
    }
  } else if (inner instanceof z.ZodRecord) {
    const value = unwrap(inner.valueType);
    if (value instanceof z.ZodObject) probe(kind, [...path, "*"], value, (item) => place({ k: item }), stack);
  }
}

for (const [kind, schema] of Object.entries(roots)) walkInto(kind, [kind], unwrap(schema), (value) => value, []);
process.stdout.write(`${JSON.stringify(entries)}\n`);
