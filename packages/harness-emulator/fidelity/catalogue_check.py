#!/usr/bin/env python3
"""Compares the protocol catalogue's view of a harness release with the official SDK's descriptor.

The SDK's generated `localharness_pb2` DESCRIPTOR is the exact protocol of its release. Every field
path it has (from InitializeConversationEvent, InputEvent and OutputEvent, by JSON name) and every
enum name must be what `checkWireMessage` of @ag-ui-antigravity/harness/protocol accepts for that
release (catalogue-probe.mjs beside this file asks it), and nothing more: any difference is a
mistake in the catalogue, which both the client and the emulator trust.

Usage (standalone, e.g. for the pb2 generated from another release's proto):
  python catalogue_check.py --version 0.1.13 [--pb2-dir DIR]
where DIR holds google/antigravity/proto/localharness_pb2.py (default: the installed SDK's).
Exit status 0 when they agree.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import subprocess
import sys
from typing import Any

_PROBE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "catalogue-probe.mjs")
_ROOTS = ("InitializeConversationEvent", "InputEvent", "OutputEvent")
# genai.Content is carried opaquely by the catalogue (genai.Value.contentValue): not walked.
_OPAQUE = {"genai.Content"}


def descriptor_paths(pb2: Any) -> dict[str, list[str] | None]:
  """Every field path of the three frame kinds, with the enum names of enum fields."""
  from google.protobuf.descriptor import FieldDescriptor

  out: dict[str, list[str] | None] = {}

  def walk(message: Any, path: list[str], stack: list[str]) -> None:
    for field in message.fields:
      here = path + [field.json_name]
      if field.message_type is not None and field.message_type.GetOptions().map_entry:
        out[".".join(here)] = None
        value = field.message_type.fields_by_name["value"]
        if value.message_type is not None:
          out[".".join(here + ["*"])] = None
          if value.message_type.full_name not in stack:
            walk(value.message_type, here + ["*"], stack + [value.message_type.full_name])
        continue
      if field.type == FieldDescriptor.TYPE_ENUM:
        out[".".join(here)] = [value.name for value in field.enum_type.values]
        continue
      out[".".join(here)] = None
      if field.message_type is not None:
        name = field.message_type.full_name
        if name in stack or name in _OPAQUE:
          continue
        walk(field.message_type, here, stack + [name])

  for root in _ROOTS:
    descriptor = getattr(pb2, root).DESCRIPTOR
    walk(descriptor, [root], [descriptor.full_name])
  return out


def catalogue_paths(version: str) -> dict[str, list[str] | None]:
  """What checkWireMessage accepts for `version`, by path (catalogue-probe.mjs)."""
  result = subprocess.run(["node", _PROBE, version], capture_output=True, text=True, check=True, cwd=os.path.dirname(_PROBE))
  return {entry["path"]: entry.get("enumNames") for entry in json.loads(result.stdout)}


# google.protobuf.NullValue: the catalogue takes any null marker there, not a list of names.
_NOT_COMPARED_ENUMS = {"nullValue"}


def compare(version: str, pb2: Any) -> list[str]:
  """Differences between the SDK descriptor and the catalogue for `version`; empty when they agree."""
  sdk = descriptor_paths(pb2)
  catalogue = catalogue_paths(version)
  findings: list[str] = []
  for path in sorted(set(sdk) - set(catalogue)):
    findings.append(f"catalogue refuses {path}, which the {version} SDK has")
  for path in sorted(set(catalogue) - set(sdk)):
    findings.append(f"catalogue accepts {path}, which the {version} SDK does not have")
  for path in sorted(set(sdk) & set(catalogue)):
    names, accepted = sdk[path], catalogue[path]
    if names is None or path.rsplit(".", 1)[-1] in _NOT_COMPARED_ENUMS:
      continue
    if accepted is None:
      findings.append(f"catalogue does not treat {path} as an enum")
      continue
    for name in sorted(set(names) - set(accepted)):
      findings.append(f"catalogue refuses enum name {name} at {path}, which the {version} SDK has")
    for name in sorted(set(accepted) - set(names)):
      findings.append(f"catalogue accepts enum name {name} at {path}, which the {version} SDK does not have")
  return findings


def main() -> None:
  parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
  parser.add_argument("--version", required=True, help="the harness release the descriptor belongs to")
  parser.add_argument("--pb2-dir", help="a directory holding google/antigravity/proto/localharness_pb2.py")
  args = parser.parse_args()
  if args.pb2_dir:
    sys.path.insert(0, args.pb2_dir)
  pb2 = importlib.import_module("google.antigravity.proto.localharness_pb2")
  findings = compare(args.version, pb2)
  for finding in findings:
    print(finding)
  print(f"{len(findings)} difference(s) between the {args.version} descriptor and the catalogue")
  sys.exit(1 if findings else 0)


if __name__ == "__main__":
  main()
