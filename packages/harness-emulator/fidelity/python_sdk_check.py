#!/usr/bin/env python3
"""Drives the localharness emulator with the official Python SDK (google-antigravity).

This script only uses the SDK's public API (Agent, LocalAgentConfig, hooks,
policies) plus a passive WebSocket tap that records every frame in both
directions. It contains no SDK code. The SDK itself is never vendored here: it
must be installed separately (see README.md beside this file).

Usage (see README.md beside this file for the one-time setup):
  ANTIGRAVITY_HARNESS_PATH=/tmp/emulator-harness \
    python python_sdk_check.py [--extras python-sdk-extras.json] [--only NAME ...] \
      [--frames-dir DIR] [--json-out FILE]

Every scenario runs in its own Agent session (its own emulator process) with
a wall-clock timeout, and prints PASS / FAIL / ERROR with the evidence.
Exit status is 0 only when every scenario passed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import pathlib
import re
import sys
import tempfile
import time
import traceback
from typing import Any, Awaitable, Callable, Literal, Optional

SCENARIO_TIMEOUT_S = 30.0

# The checks issue 37 asks of both SDK generations (`--core`): a text turn, a custom tool, a
# question, a confirmation, a pre-tool hook, a trigger, a clean shutdown, the frames the harness
# refuses, and the catalogue against the SDK's own descriptor.
CORE_SCENARIOS = [
    "text_turn", "custom_tool", "question", "tool_confirmation", "lifecycle_hooks", "pre_tool_deny",
    "trigger_flow", "clean_shutdown", "refuses_unknown_field_in_init", "refuses_unknown_field_later",
    "autonomous_does_not_ask", "catalogue_matches_descriptor",
]

# --------------------------------------------------------------------------
# Frame tap
# --------------------------------------------------------------------------


class FrameLog:
  """All frames of one scenario, in order, with direction and time."""

  def __init__(self) -> None:
    self.frames: list[dict[str, Any]] = []
    self.t0 = time.monotonic()
    self.stderr: list[str] = []

  def add(self, direction: str, raw: Any) -> None:
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    try:
      obj = json.loads(text)
    except ValueError:
      obj = None
    self.frames.append({
        "dir": direction,
        "t": round(time.monotonic() - self.t0, 4),
        "raw": text,
        "json": obj,
    })

  def inbound(self) -> list[dict[str, Any]]:
    return [f for f in self.frames if f["dir"] == "H->C"]

  def outbound(self) -> list[dict[str, Any]]:
    return [f for f in self.frames if f["dir"] == "C->H"]


CURRENT_LOG: FrameLog | None = None
# The newest tapped socket (a scenario injects raw frames through it), and an optional rewrite of
# the first frame the SDK sends (the init), for the refusal checks.
CURRENT_SOCKET: "_TapSocket | None" = None
REWRITE_FIRST_FRAME: Callable[[str], str] | None = None


class _TapSocket:
  """Wraps the SDK's websocket connection and records each text frame."""

  def __init__(self, inner: Any) -> None:
    self._inner = inner
    self._sent = 0

  async def send(self, message: Any, *args: Any, **kwargs: Any) -> Any:
    self._sent += 1
    if self._sent == 1 and REWRITE_FIRST_FRAME is not None and isinstance(message, str):
      message = REWRITE_FIRST_FRAME(message)
    if CURRENT_LOG is not None:
      CURRENT_LOG.add("C->H", message)
    return await self._inner.send(message, *args, **kwargs)

  async def inject(self, raw: str) -> None:
    """Sends a frame the SDK itself would never send."""
    if CURRENT_LOG is not None:
      CURRENT_LOG.add("C->H", raw)
    await self._inner.send(raw)

  async def recv(self, *args: Any, **kwargs: Any) -> Any:
    msg = await self._inner.recv(*args, **kwargs)
    if CURRENT_LOG is not None:
      CURRENT_LOG.add("H->C", msg)
    return msg

  def __aiter__(self):
    return self._iterate()

  async def _iterate(self):
    async for msg in self._inner:
      if CURRENT_LOG is not None:
        CURRENT_LOG.add("H->C", msg)
      yield msg

  def __getattr__(self, name: str) -> Any:
    return getattr(self._inner, name)


class _StderrCapture(logging.Handler):
  """Collects the harness stderr lines the SDK forwards to logging."""

  def emit(self, record: logging.LogRecord) -> None:
    msg = record.getMessage()
    if CURRENT_LOG is not None and msg.startswith("harness stderr: "):
      CURRENT_LOG.stderr.append(msg[len("harness stderr: "):])


def install_tap() -> None:
  import websockets  # the SDK's own dependency

  original = websockets.connect

  async def tapped_connect(*args: Any, **kwargs: Any) -> Any:
    global CURRENT_SOCKET
    CURRENT_SOCKET = _TapSocket(await original(*args, **kwargs))
    return CURRENT_SOCKET

  websockets.connect = tapped_connect  # the SDK calls websockets.connect(...)
  for h in logging.getLogger().handlers:
    if h.level == logging.NOTSET:
      h.setLevel(logging.WARNING)  # keep the console quiet; the tap sees INFO
  handler = _StderrCapture()
  handler.setLevel(logging.INFO)
  logging.getLogger().addHandler(handler)
  logging.getLogger().setLevel(logging.INFO)


# --------------------------------------------------------------------------
# Wire checks applied to every scenario's frames
# --------------------------------------------------------------------------

_INT64_KEYS = {
    "seqNum", "timestampMicros", "promptTokenCount", "candidatesTokenCount",
    "totalTokenCount", "thoughtsTokenCount", "cachedContentTokenCount",
    "fileSize",
}


def _walk(obj: Any, path: str = ""):
  if isinstance(obj, dict):
    for k, v in obj.items():
      yield f"{path}.{k}" if path else k, k, v
      yield from _walk(v, f"{path}.{k}" if path else k)
  elif isinstance(obj, list):
    for i, v in enumerate(obj):
      yield from _walk(v, f"{path}[{i}]")


def wire_checks(log: FrameLog) -> list[str]:
  """Protocol-level findings that do not depend on the SDK's reaction."""
  from google.protobuf import json_format
  from google.antigravity.proto import localharness_pb2

  findings: list[str] = []
  inbound = log.inbound()
  if inbound:
    first = inbound[0]["json"] or {}
    if "initializeConversationResponse" not in first:
      findings.append(f"first harness frame is not initializeConversationResponse: {inbound[0]['raw'][:200]}")
  for i, f in enumerate(inbound):
    # 1. Strict parse against the SDK's proto (what the SDK does).
    try:
      json_format.Parse(f["raw"], localharness_pb2.OutputEvent())
    except Exception as e:  # pylint: disable=broad-except
      findings.append(f"frame H->C #{i} rejected by json_format.Parse: {e}; frame={f['raw'][:300]}")
    obj = f["json"]
    if obj is None:
      continue
    # 2. int64 as JSON strings.
    for path, key, value in _walk(obj):
      if key in _INT64_KEYS and not isinstance(value, str):
        findings.append(f"frame H->C #{i}: int64 field {path} sent as {type(value).__name__} ({value!r}), expected JSON string")
  # 3. Delta/cumulative consistency per step.
  text_by_step: dict[tuple[str, int], str] = {}
  delta_by_step: dict[tuple[str, int], str] = {}
  done_steps: set[tuple[str, int]] = set()
  for i, f in enumerate(inbound):
    su = (f["json"] or {}).get("stepUpdate")
    if not su:
      continue
    key = (su.get("trajectoryId", ""), int(su.get("stepIndex", 0)))
    if "textDelta" in su:
      if key in done_steps:
        findings.append(f"frame H->C #{i}: textDelta re-sent on step {key} after it was DONE (SDK's response.text() would duplicate it)")
      delta_by_step[key] = delta_by_step.get(key, "") + su["textDelta"]
    if "text" in su:
      text_by_step[key] = su["text"]
    if su.get("state") in ("STATE_DONE", "STATE_ERROR"):
      done_steps.add(key)
  for key, text in text_by_step.items():
    d = delta_by_step.get(key)
    if d is not None and d != text:
      findings.append(f"step {key}: concatenated textDelta {d!r} != final text {text!r}")
  return findings


# --------------------------------------------------------------------------
# Scenario plumbing
# --------------------------------------------------------------------------


class ScenarioFailure(AssertionError):
  pass


class ScenarioSkipped(Exception):
  """The scenario does not apply to this SDK's release (the reason says why)."""


def check(cond: bool, msg: str) -> None:
  if not cond:
    raise ScenarioFailure(msg)


class Runner:

  def __init__(self, extras: str | None, frames_dir: pathlib.Path | None):
    self.extras = extras
    self.frames_dir = frames_dir
    self.results: list[dict[str, Any]] = []

  async def run(self, name: str, fn: Callable[[], Awaitable[dict[str, Any] | None]]) -> None:
    global CURRENT_LOG
    CURRENT_LOG = FrameLog()
    log = CURRENT_LOG
    status, details, tb = "PASS", {}, ""
    start = time.monotonic()
    try:
      details = await asyncio.wait_for(fn(), SCENARIO_TIMEOUT_S) or {}
    except ScenarioFailure as e:
      status, tb = "FAIL", str(e)
    except ScenarioSkipped as e:
      status, tb = "SKIP", str(e)
    except asyncio.TimeoutError:
      status, tb = "TIMEOUT", f"no result within {SCENARIO_TIMEOUT_S}s"
    except BaseException as e:  # pylint: disable=broad-except
      if isinstance(e, KeyboardInterrupt):
        raise
      status, tb = "ERROR", traceback.format_exc()
    elapsed = round(time.monotonic() - start, 2)
    findings = wire_checks(log)
    result = {
        "name": name,
        "status": status,
        "elapsed_s": elapsed,
        "details": details,
        "error": tb,
        "wire_findings": findings,
        "frames_in": len(log.inbound()),
        "frames_out": len(log.outbound()),
        "stderr_tail": log.stderr[-15:],
    }
    self.results.append(result)
    if self.frames_dir:
      self.frames_dir.mkdir(parents=True, exist_ok=True)
      with open(self.frames_dir / f"{name}.jsonl", "w") as fh:
        for f in log.frames:
          fh.write(json.dumps({"dir": f["dir"], "t": f["t"], "raw": f["raw"]}) + "\n")
        for line in log.stderr:
          fh.write(json.dumps({"dir": "stderr", "raw": line}) + "\n")
    print(f"[{status}] {name} ({elapsed}s)")
    if details:
      print("    details:", json.dumps(details, default=str)[:1500])
    if tb:
      print("    " + tb.strip().replace("\n", "\n    "))
    for f in findings:
      print("    wire:", f)
    if status != "PASS" and log.stderr:
      print("    harness stderr tail:\n      " + "\n      ".join(log.stderr[-8:]))
    CURRENT_LOG = None


# --------------------------------------------------------------------------
# Scenarios (public SDK API only)
# --------------------------------------------------------------------------


def build_scenarios(runner: Runner) -> dict[str, Callable[[], Awaitable[dict[str, Any] | None]]]:
  from google.antigravity import Agent, LocalAgentConfig, types
  from google.antigravity.hooks import hooks, policy

  extras_model = f"emulator:{runner.extras}" if runner.extras else None
  # From 0.1.11 the SDK's agents are AUTONOMOUS by default and an autonomous agent asks no
  # questions; the question scenarios ask for an INTERACTIVE one (0.1.10 has no such setting).
  behaviours = getattr(types, "AgentBehavior", None)

  def interactive(**kw: Any) -> dict[str, Any]:
    if behaviours is not None:
      kw["capabilities"] = types.CapabilitiesConfig(agent_behavior=behaviours.INTERACTIVE)
    return kw

  def cfg(model: str = "emulator:demo", **kw: Any) -> LocalAgentConfig:
    kw.setdefault("api_key", "emulator-fake-key")
    kw.setdefault("save_dir", tempfile.mkdtemp(prefix="agsdk_check_"))
    kw.setdefault("app_data_dir", tempfile.mkdtemp(prefix="agsdk_appdata_"))
    return LocalAgentConfig(model=model, **kw)

  def lookup_fruit_sku(fruit_name: str) -> str:
    """Looks up the SKU for a fruit.

    Args:
      fruit_name: The name of the fruit.
    """
    calls.append(("lookup_fruit_sku", fruit_name))
    return f"SKU for {fruit_name} is SKU-{str(fruit_name)[:3].upper()}-123"

  def record_count(sku: str, count: int, urgent: bool = False) -> dict:
    """Records a count of items.

    Args:
      sku: The SKU.
      count: How many.
      urgent: Whether this is urgent.
    """
    calls.append(("record_count", sku, count, urgent))
    check(isinstance(count, int), f"count arrived as {type(count).__name__}: {count!r}")
    return {"recorded": count, "sku": sku}

  def broken_tool(reason: str) -> str:
    """A tool that always fails.

    Args:
      reason: Anything.
    """
    calls.append(("broken_tool", reason))
    raise RuntimeError("broken_tool exploded on purpose")

  calls: list[tuple] = []

  # -- 1. plain text turn ---------------------------------------------------
  async def text_turn():
    async with Agent(cfg()) as agent:
      resp = await agent.chat("hello from the python sdk")
      text = await resp.text()
      check("hello from the python sdk" in text, f"echo missing from {text!r}")
      hist = agent.conversation.history
      complete = [s for s in hist if s.is_complete_response]
      check(len(complete) == 1, f"expected 1 complete response step, got {len(complete)}")
      check(complete[0].content == text, f"streamed text {text!r} != DONE step text {complete[0].content!r}")
      cid = agent.conversation_id
      check(bool(cid) and re.fullmatch(r"[0-9a-f]{32}", cid or "") is not None, f"conversation_id {cid!r}")
      usage = resp.usage_metadata
      # second turn on the same session
      resp2 = await agent.chat("second turn")
      text2 = await resp2.text()
      check("second turn" in text2, f"2nd turn text {text2!r}")
      check(agent.conversation_id == cid, "conversation id changed between turns")
      return {
          "text": text, "conversation_id": cid,
          "usage": usage.model_dump(exclude_none=True) if usage else None,
          "history_types": [f"{s.source.value}/{s.type.value}/{s.status.value}" for s in hist],
          "turn_count": agent.conversation.turn_count,
      }

  # -- 1b. streaming API ------------------------------------------------------
  async def streaming():
    async with Agent(cfg()) as agent:
      resp = await agent.chat("stream please")
      deltas = [d async for d in resp]
      thoughts = [t async for t in resp.thoughts]
      full = await resp.text()
      check(len(deltas) > 1, f"expected several text deltas, got {len(deltas)}")
      check("".join(deltas) == full, "deltas do not add up to text()")
      check(len(thoughts) >= 1, "no thinking deltas surfaced")
      return {"n_text_deltas": len(deltas), "n_thought_deltas": len(thoughts), "thought": "".join(thoughts)}

  # -- 2. custom tool ---------------------------------------------------------
  async def custom_tool():
    calls.clear()
    async with Agent(cfg(tools=[lookup_fruit_sku])) as agent:
      resp = await agent.chat("Please use lookup_fruit_sku to find apples.")
      tool_calls = [c async for c in resp.tool_calls]
      text = await resp.text()
      check(len(calls) == 1, f"tool executed {len(calls)} times: {calls}")
      check(isinstance(calls[0][1], str), f"fruit_name not a string: {calls[0]!r}")
      check("SKU for" in text, f"tool result not in final text: {text!r}")
      check(len(tool_calls) == 1, f"ToolCall chunks surfaced: {tool_calls}")
      return {"calls": calls[:], "text": text, "tool_call_chunks": [c.model_dump(exclude_none=True) for c in tool_calls]}

  async def custom_tool_typed():
    calls.clear()
    async with Agent(cfg(tools=[record_count])) as agent:
      text = await (await agent.chat("call record_count now")).text()
      check(len(calls) == 1, f"tool executed {len(calls)} times: {calls}")
      check("recorded" in text, f"result missing: {text!r}")
      return {"calls": calls[:], "text": text}

  async def custom_tool_error():
    calls.clear()
    seen: list[Any] = []

    @hooks.on_tool_error
    async def on_err(error: Exception):
      seen.append({"type": type(error).__name__, "msg": str(error),
                   "tool": getattr(error, "tool_name", None), "call_id": getattr(error, "call_id", None)})
      return "custom recovery text from on_tool_error"

    async with Agent(cfg(tools=[broken_tool], hooks=[on_err])) as agent:
      text = await (await agent.chat("try broken_tool please")).text()
      check(len(calls) == 1, f"tool executed {len(calls)} times")
      outs = [f["json"] for f in CURRENT_LOG.outbound() if f["json"] and "toolResponse" in f["json"]]
      check(len(outs) == 1 and "errorMessage" in outs[0]["toolResponse"], f"tool response frames: {outs}")
      return {"text": text, "on_tool_error_calls": seen, "tool_response": outs}

  # -- 3. question --------------------------------------------------------------
  async def question():
    asked: list[Any] = []

    @hooks.on_interaction
    async def answer(spec: types.AskQuestionInteractionSpec) -> hooks.QuestionHookResult:
      asked.append([{"q": q.question, "options": [(o.id, o.text) for o in q.options]} for q in spec.questions])
      return hooks.QuestionHookResult(responses=[types.QuestionResponse(selected_option_ids=["2"]) for _ in spec.questions])

    async with Agent(cfg(**interactive(hooks=[answer]))) as agent:
      resp = await agent.chat("ask me to choose between red, green or blue")
      text = await resp.text()
      check(len(asked) == 1, f"question hook ran {len(asked)} times: {asked}")
      opts = asked[0][0]["options"]
      chosen = opts[1][1] if len(opts) > 1 else None
      check(chosen is not None and chosen in text, f"answer {chosen!r} not reflected in {text!r}")
      outs = [f["json"] for f in CURRENT_LOG.outbound() if f["json"] and "questionResponse" in f["json"]]
      check(len(outs) == 1, f"{len(outs)} questionResponse frames sent")
      return {"asked": asked, "text": text, "question_response": outs[0]}

  async def question_freeform_and_cancel():
    results = []

    @hooks.on_interaction
    async def answer(spec: types.AskQuestionInteractionSpec) -> hooks.QuestionHookResult:
      if not results:
        results.append("freeform")
        return hooks.QuestionHookResult(responses=[types.QuestionResponse(freeform_response="purple")])
      results.append("cancelled")
      return hooks.QuestionHookResult(responses=[], cancelled=True)

    async with Agent(cfg(**interactive(hooks=[answer]))) as agent:
      t1 = await (await agent.chat("ask me which colour")).text()
      t2 = await (await agent.chat("ask me again")).text()
      return {"freeform_text": t1, "second_text": t2, "hook_calls": results}

  async def question_disabled():
    # ask_question disabled: the demo scenario must not ask.
    caps = types.CapabilitiesConfig(disabled_tools=[types.BuiltinTools.ASK_QUESTION])
    async with Agent(cfg(capabilities=caps)) as agent:
      text = await (await agent.chat("ask me something")).text()
      sent_q = any("questionsRequest" in json.dumps(f["json"]) for f in CURRENT_LOG.inbound() if f["json"])
      check(not sent_q, "questionsRequest sent although ask_question is disabled")
      return {"text": text}

  # -- 4. cancel ----------------------------------------------------------------
  async def cancel():
    if not extras_model:
      raise ScenarioFailure("needs --extras")
    async with Agent(cfg(model=extras_model)) as agent:
      resp = await agent.chat("please be slow")
      got: list[str] = []
      err = None
      try:
        async for d in resp:
          got.append(d)
          if len(got) == 1:
            await resp.cancel()
      except BaseException as e:  # AntigravityCancelledError is a CancelledError
        err = e
      check(isinstance(err, types.AntigravityCancelledError), f"expected AntigravityCancelledError, got {err!r}")
      text_after = "".join(got)
      check("never arrive" not in text_after, f"text after cancel: {text_after!r}")
      t2 = await (await agent.chat("after cancel")).text()
      check("after cancel" in t2, f"turn after cancel: {t2!r}")
      halts = [f["json"] for f in CURRENT_LOG.outbound() if f["json"] and "haltRequest" in f["json"]]
      return {"partial": text_after, "error": repr(err), "next_turn": t2, "halt_frames": halts}

  # -- 5. resume ----------------------------------------------------------------
  async def resume():
    save_dir = tempfile.mkdtemp(prefix="agsdk_resume_")
    async with Agent(cfg(save_dir=save_dir)) as agent:
      t1 = await (await agent.chat("remember the word pineapple")).text()
      cid = agent.conversation_id
      n1 = len(agent.conversation.history)
    check(bool(cid), "no conversation id after first session")
    async with Agent(cfg(save_dir=save_dir, conversation_id=cid,
                         session_continuation_mode=types.SessionContinuationMode.RESUME)) as agent2:
      hist = agent2.conversation.history
      check(len(hist) > 0, "resumed session has empty history")
      check(any("pineapple" in (s.content or "") for s in hist), "planted word not in resumed history")
      t2 = await (await agent2.chat("what did I say?")).text()
      cid2 = agent2.conversation_id
      check(cid2 == cid, f"conversation id after resume {cid2!r} != {cid!r}")
      init = [f["json"] for f in CURRENT_LOG.inbound() if f["json"] and "initializeConversationResponse" in f["json"]][-1]
    # CREATE_ONLY with an existing id: what happens?
    create_only = None
    try:
      async with Agent(cfg(save_dir=save_dir, conversation_id=cid,
                           session_continuation_mode=types.SessionContinuationMode.CREATE_ONLY)) as agent3:
        create_only = f"accepted; history={len(agent3.conversation.history)}"
    except Exception as e:  # pylint: disable=broad-except
      create_only = f"rejected: {type(e).__name__}: {str(e)[:300]}"
    # RESUME with an unknown id
    resume_unknown = None
    try:
      async with Agent(cfg(save_dir=save_dir, conversation_id="0" * 32,
                           session_continuation_mode=types.SessionContinuationMode.RESUME)) as agent4:
        resume_unknown = f"accepted; history={len(agent4.conversation.history)}"
    except Exception as e:  # pylint: disable=broad-except
      resume_unknown = f"rejected: {type(e).__name__}: {str(e)[:300]}"
    return {"first_text": t1, "history_len_first": n1, "resumed_history_len": len(hist),
            "resumed_history": [f"{s.source.value}/{s.type.value}: {s.content[:40]!r}" for s in hist],
            "init_keys": sorted((init or {}).get("initializeConversationResponse", {}).keys()),
            "second_text": t2, "create_only_existing": create_only, "resume_unknown_id": resume_unknown}

  # -- 6. hooks -----------------------------------------------------------------
  async def lifecycle_hooks():
    fired: list[Any] = []

    @hooks.on_session_start
    async def s_start():
      fired.append("session_start")

    @hooks.on_session_end
    async def s_end():
      fired.append("session_end")

    @hooks.pre_turn
    async def p_turn(content):
      fired.append(("pre_turn", content))
      return types.HookResult(allow=True)

    @hooks.post_turn
    async def po_turn(text: str):
      fired.append(("post_turn", text[:40]))

    @hooks.pre_tool_call_decide
    async def p_tool(tc: types.ToolCall):
      fired.append(("pre_tool", tc.name, tc.args, tc.id))
      return types.HookResult(allow=True)

    @hooks.post_tool_call
    async def po_tool(tr: types.ToolResult):
      fired.append(("post_tool", tr.name, str(tr.result)[:60], tr.error, tr.id))

    async with Agent(cfg(tools=[lookup_fruit_sku],
                         hooks=[s_start, s_end, p_turn, po_turn, p_tool, po_tool])) as agent:
      t = await (await agent.chat("use lookup_fruit_sku on a mango")).text()
      await asyncio.sleep(0.3)  # post-turn hook may follow the idle
    kinds = [f if isinstance(f, str) else f[0] for f in fired]
    for k in ("session_start", "pre_turn", "pre_tool", "post_tool", "post_turn", "session_end"):
      check(k in kinds, f"hook {k} never fired; fired={fired}")
    return {"fired": fired, "text": t}

  async def pre_turn_deny():
    @hooks.pre_turn
    async def deny(content):
      return types.HookResult(allow=False, message="Denied by test hook")

    async with Agent(cfg(hooks=[deny])) as agent:
      err = None
      try:
        await (await agent.chat("this turn is denied")).text()
      except Exception as e:  # pylint: disable=broad-except
        err = e
      check(isinstance(err, types.AntigravityExecutionError), f"expected AntigravityExecutionError, got {err!r}")
      check("Denied by test hook" in str(err), f"deny reason lost: {err}")
      return {"error": repr(err)}

  async def pre_tool_deny():
    calls.clear()

    @hooks.pre_tool_call_decide
    async def deny(tc: types.ToolCall):
      return types.HookResult(allow=False, message="tool vetoed by hook")

    async with Agent(cfg(tools=[lookup_fruit_sku], hooks=[deny])) as agent:
      t = await (await agent.chat("use lookup_fruit_sku on a kiwi")).text()
    check(not calls, f"tool ran despite pre-tool deny: {calls}")
    return {"text": t}

  # -- 7. policies ----------------------------------------------------------------
  async def policy_static_deny():
    calls.clear()
    async with Agent(cfg(tools=[lookup_fruit_sku],
                         policies=[policy.allow_all(), policy.deny("lookup_fruit_sku")])) as agent:
      t = await (await agent.chat("use lookup_fruit_sku on a pear")).text()
    check(not calls, f"tool ran despite static deny policy: {calls}")
    return {"text": t}

  async def policy_dynamic():
    calls.clear()
    evaluated: list[Any] = []

    def not_apples(args: dict) -> bool:  # `when` receives the argument dict
      evaluated.append(args)
      return "apple" not in json.dumps(args)

    async with Agent(cfg(tools=[lookup_fruit_sku],
                         policies=[policy.allow_all(), policy.deny("lookup_fruit_sku", when=not_apples)])) as agent:
      t1 = await (await agent.chat("use lookup_fruit_sku please")).text()
      n_after_first = len(calls)
      t2 = await (await agent.chat("use lookup_fruit_sku for apples")).text()
    reqs = [f["json"] for f in CURRENT_LOG.inbound() if f["json"] and "policyDecisionRequest" in f["json"]]
    resps = [f["json"] for f in CURRENT_LOG.outbound() if f["json"] and "policyDecisionResponse" in f["json"]]
    check(len(reqs) == 2, f"{len(reqs)} policyDecisionRequests for two dynamic-rule calls")
    check(n_after_first == 0, "tool ran although the dynamic rule denied it")
    check(len(calls) == 1, f"NO_MATCH did not fall through to allow_all: calls={calls}")
    return {"denied_text": t1, "allowed_text": t2, "evaluated": evaluated, "calls": calls[:],
            "requests": reqs, "responses": resps}

  async def policy_ask_user():
    calls.clear()
    asked = []

    async def handler(tc: types.ToolCall) -> bool:
      asked.append((tc.name, tc.args))
      return True

    async with Agent(cfg(tools=[lookup_fruit_sku],
                         policies=[policy.allow_all(), policy.ask_user("lookup_fruit_sku", handler=handler)])) as agent:
      t = await (await agent.chat("use lookup_fruit_sku on grapes")).text()
    check(len(asked) == 1 and len(calls) == 1, f"asked={asked} calls={calls}")
    return {"text": t, "asked": asked}

  # -- 8. builtins / misc -----------------------------------------------------------
  async def builtin_list_dir():
    ws = tempfile.mkdtemp(prefix="agsdk_ws_")
    pathlib.Path(ws, "a.txt").write_text("hello")
    pathlib.Path(ws, "sub").mkdir()
    post: list[Any] = []

    @hooks.post_tool_call
    async def po(tr: types.ToolResult):
      post.append((tr.name, type(tr.result).__name__, str(tr.result)[:200], tr.error))

    async with Agent(cfg(workspaces=[ws], hooks=[po])) as agent:
      resp = await agent.chat("please list the files")
      t = await resp.text()
      tool_steps = [s for s in agent.conversation.history if s.type == types.StepType.TOOL_CALL]
    check(any("a.txt" in t for _ in [0]), f"listing missing a.txt: {t!r}")
    check(tool_steps, "no TOOL_CALL step in history")
    return {"text": t, "post_tool": post,
            "tool_steps": [(s.status.value, [c.model_dump(exclude_none=True) for c in s.tool_calls]) for s in tool_steps]}

  async def structured_output():
    if not extras_model:
      raise ScenarioFailure("needs --extras")
    schema = {"type": "object", "properties": {"answer": {"type": "string"}, "score": {"type": "integer"}},
              "required": ["answer", "score"]}
    async with Agent(cfg(model=extras_model, response_schema=schema)) as agent:
      resp = await agent.chat("give me structured output")
      out = await resp.structured_output()
      check(isinstance(out, dict) and isinstance(out.get("score"), int) and isinstance(out.get("answer"), str),
            f"structured output does not satisfy schema: {out!r}")
      return {"output": out}

  async def errors():
    if not extras_model:
      raise ScenarioFailure("needs --extras")
    res = {}
    async with Agent(cfg(model=extras_model)) as agent:
      for msg in ("ratelimit now", "turnfail now", "autherror now"):
        try:
          t = await (await agent.chat(msg)).text()
          res[msg] = f"ok: {t!r}"
        except Exception as e:  # pylint: disable=broad-except
          res[msg] = f"{type(e).__name__}: {e}"
    check(res["ratelimit now"].startswith("AntigravityExecutionError") and "Resource exhausted" in res["ratelimit now"], f"429: {res['ratelimit now']}")
    check(res["turnfail now"].startswith("AntigravityExecutionError"), f"turn-fail: {res['turnfail now']}")
    check(res["autherror now"].startswith("AntigravityConnectionError"), f"401: {res['autherror now']}")
    return res

  async def subagent():
    if not extras_model:
      raise ScenarioFailure("needs --extras")
    async with Agent(cfg(model=extras_model)) as agent:
      t = await (await agent.chat("run a subagent")).text()
      usages = agent.conversation.trajectory_usages
    check("subagent finished" in t, f"text {t!r}")
    return {"text": t, "trajectory_usages": list(usages.keys())}

  async def compaction():
    if not extras_model:
      raise ScenarioFailure("needs --extras")
    seen = []

    @hooks.on_compaction
    async def oc(step):
      seen.append(step.type.value)

    async with Agent(cfg(model=extras_model, hooks=[oc])) as agent:
      t = await (await agent.chat("compact now")).text()
      await asyncio.sleep(0.2)
      idx = agent.conversation.compaction_indices
    check(seen, "on_compaction hook never fired")
    return {"text": t, "compaction_indices": idx, "hook": seen}

  async def tool_confirmation():
    if not extras_model:
      raise ScenarioFailure("needs --extras")
    calls.clear()
    async with Agent(cfg(model=extras_model, tools=[lookup_fruit_sku])) as agent:
      t = await (await agent.chat("confirmtool please")).text()
    confs = [f["json"] for f in CURRENT_LOG.outbound() if f["json"] and "toolConfirmation" in f["json"]]
    check(len(calls) == 1, f"tool ran {len(calls)} times")
    return {"text": t, "confirmations_sent": confs}

  async def unknown_field_injection():
    # Deliberate fault injection: the SDK must reject it (proves strictness).
    if not extras_model:
      raise ScenarioFailure("needs --extras")
    async with Agent(cfg(model=extras_model)) as agent:
      try:
        t = await (await agent.chat("unknownfield")).text()
        return {"outcome": f"no error; text={t!r}"}
      except Exception as e:  # pylint: disable=broad-except
        return {"outcome": f"{type(e).__name__}: {str(e)[:300]}"}

  async def multi_turn_mix():
    calls.clear()
    asked = []

    @hooks.on_interaction
    async def answer(spec):
      asked.append(1)
      return hooks.QuestionHookResult(responses=[types.QuestionResponse(selected_option_ids=["1"])])

    async with Agent(cfg(**interactive(tools=[lookup_fruit_sku], hooks=[answer]))) as agent:
      out = []
      for msg in ("hi", "use lookup_fruit_sku for plums", "ask me to choose", "bye"):
        out.append(await (await agent.chat(msg)).text())
    check(len(calls) == 1 and len(asked) == 1, f"calls={calls} asked={asked}")
    return {"texts": out}


  # -- 9. timing / robustness -------------------------------------------------
  async def slow_question_hook():
    asked = []

    @hooks.on_interaction
    async def answer(spec):
      asked.append(1)
      await asyncio.sleep(2.5)  # longer than the default 1 s re-broadcast
      return hooks.QuestionHookResult(responses=[types.QuestionResponse(selected_option_ids=["3"])])

    async with Agent(cfg(**interactive(hooks=[answer]))) as agent:
      t = await (await agent.chat("ask me to pick one")).text()
    resps = [f for f in CURRENT_LOG.outbound() if f["json"] and "questionResponse" in f["json"]]
    rebroadcasts = sum(1 for f in CURRENT_LOG.inbound() if f["json"] and "questionsRequest" in json.dumps(f["json"]))
    check(len(asked) == 1 and len(resps) == 1, f"hook calls={len(asked)}, responses={len(resps)}")
    return {"text": t, "questionsRequest_frames": rebroadcasts}

  def slow_tool(item: str) -> str:
    """A slow tool.

    Args:
      item: Anything.
    """
    calls.append(("slow_tool", item))
    time.sleep(2.5)  # blocks the loop, like a sync tool would
    return f"slow result for {item}"

  async def slow_custom_tool():
    calls.clear()
    async with Agent(cfg(tools=[slow_tool])) as agent:
      t = await (await agent.chat("run slow_tool now")).text()
    tcs = sum(1 for f in CURRENT_LOG.inbound() if f["json"] and "toolCall" in f["json"])
    check(len(calls) == 1, f"slow tool executed {len(calls)} times; toolCall frames={tcs}")
    return {"text": t, "toolCall_frames": tcs}

  async def slow_pre_tool_hook():
    calls.clear()
    n = []

    @hooks.pre_tool_call_decide
    async def slow(tc):
      n.append(tc.name)
      await asyncio.sleep(2.5)
      return types.HookResult(allow=True)

    async with Agent(cfg(tools=[lookup_fruit_sku], hooks=[slow])) as agent:
      t = await (await agent.chat("use lookup_fruit_sku on a lime")).text()
    check(len(n) == 1 and len(calls) == 1, f"pre-tool hook ran {len(n)}x, tool {len(calls)}x")
    return {"text": t}

  async def unicode_split():
    out = {}
    async with Agent(cfg()) as agent:
      for msg in ("\U0001F600 hi", "x\U0001F600\U0001F680 caf\u00e9 \u4e2d\u6587 \U0001F44D\U0001F3FD"):
        try:
          t = await (await agent.chat(msg)).text()
          check(msg in t, f"text lost characters: {t!r}")
          out[msg] = "ok"
        except ScenarioFailure:
          raise
        except Exception as e:  # pylint: disable=broad-except
          out[msg] = f"{type(e).__name__}: {str(e)[:400]}"
          raise ScenarioFailure(f"message {msg!r}: {out[msg]}")
    return out

  def big_tool(size: int) -> str:
    """Returns a big string.

    Args:
      size: Ignored.
    """
    calls.append(("big_tool", size))
    return "x" * (5 * 1024 * 1024)

  async def large_tool_result():
    if not extras_model:
      raise ScenarioFailure("needs --extras")
    calls.clear()
    async with Agent(cfg(model=extras_model, tools=[big_tool])) as agent:
      t = await (await agent.chat("bigtool please")).text()
    check(len(calls) == 1, f"calls={calls}")
    return {"text": t[:200]}

  async def chat_while_busy():
    async with Agent(cfg()) as agent:
      r1 = await agent.chat("first message, never drained by the caller")
      r2 = await agent.chat("second message")
      t2 = await r2.text()
      t1 = await r1.text()
    check("second message" in t2, f"turn 2 text {t2!r}")
    return {"t1": t1[:80], "t2": t2[:80]}

  async def trigger_flow():
    from google.antigravity.triggers import trigger as trigger_deco
    fired = asyncio.Event()
    go = asyncio.Event()

    @trigger_deco
    async def my_trigger(ctx):
      await go.wait()
      await ctx.send("build 42 failed")
      fired.set()

    async with Agent(cfg(triggers=[my_trigger])) as agent:
      t1 = await (await agent.chat("hello before trigger")).text()
      go.set()
      await fired.wait()
      await asyncio.sleep(1.5)
      t2 = await (await agent.chat("anything new?")).text()
      hist = [s.content for s in agent.conversation.history if s.content]
    trig = [f["json"] for f in CURRENT_LOG.outbound() if f["json"] and "automatedTrigger" in f["json"]]
    check(trig, "no automatedTrigger frame sent")
    wire_trigger = any("Trigger received" in f["raw"] for f in CURRENT_LOG.inbound())
    check(wire_trigger, "no trigger turn on the wire")
    # Note: the SDK itself drops the trigger turn's steps from history when the
    # next send() finds the connection idle (reset_for_turn clears the queue).
    return {"t2": t2[:80], "trigger_frames": trig,
            "trigger_turn_in_sdk_history": any("Trigger received" in h for h in hist)}

  async def multimodal_input():
    png = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                        "1f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082")
    async with Agent(cfg()) as agent:
      t = await (await agent.chat(["describe this picture", types.Image(data=png, mime_type="image/png")])).text()
    return {"text": t}

  async def resume_twice():
    save_dir = tempfile.mkdtemp(prefix="agsdk_resume2_")
    async with Agent(cfg(save_dir=save_dir)) as a1:
      await (await a1.chat("turn one alpha")).text()
      cid = a1.conversation_id
    async with Agent(cfg(save_dir=save_dir, conversation_id=cid,
                         session_continuation_mode=types.SessionContinuationMode.RESUME)) as a2:
      await (await a2.chat("turn two beta")).text()
    async with Agent(cfg(save_dir=save_dir, conversation_id=cid)) as a3:
      hist = [s.content for s in a3.conversation.history]
    check(any("beta" in (h or "") for h in hist), f"turn of the resumed session not persisted: {hist}")
    check(any("alpha" in (h or "") for h in hist), f"first turn lost: {hist}")
    return {"history": hist}

  async def builtins_all():
    if not extras_model:
      raise ScenarioFailure("needs --extras")
    ws = tempfile.mkdtemp(prefix="agsdk_ws_")
    pathlib.Path(ws, "a.txt").write_text("hello world\nsecond line\n")
    pre, post, errs = [], [], []

    @hooks.pre_tool_call_decide
    async def p(tc):
      pre.append((tc.name, tc.args, tc.canonical_path))
      return types.HookResult(allow=True)

    @hooks.post_tool_call
    async def q(tr):
      post.append((tr.name, type(tr.result).__name__, str(tr.result)[:80], tr.error))

    @hooks.on_tool_error
    async def e(err):
      errs.append((getattr(err, "tool_name", None), str(err)[:120]))

    out = {}
    async with Agent(cfg(model=extras_model, workspaces=[ws], policies=[policy.allow_all()], hooks=[p, q, e])) as agent:
      for word in ("viewfile", "findfile", "grepdir", "createfile", "editfile", "runcmd", "outside"):
        try:
          out[word] = (await (await agent.chat(f"{word} please")).text())[:160]
        except Exception as ex:  # pylint: disable=broad-except
          out[word] = f"{type(ex).__name__}: {ex}"[:300]
    check(pathlib.Path(ws, "new.txt").exists(), "create_file did not create the file")
    check(pathlib.Path(ws, "ran.txt").exists(), "run_command did not run (allow_all)")
    check("bye" in pathlib.Path(ws, "a.txt").read_text(), "edit_file did not edit")
    return {"texts": out, "pre_tool": pre, "post_tool": post, "on_tool_error": errs}

  async def run_command_default_policy():
    if not extras_model:
      raise ScenarioFailure("needs --extras")
    ws = tempfile.mkdtemp(prefix="agsdk_ws_")
    async with Agent(cfg(model=extras_model, workspaces=[ws])) as agent:
      t = await (await agent.chat("runcmd please")).text()
    check(not pathlib.Path(ws, "ran.txt").exists(), "run_command ran despite the default deny policy")
    return {"text": t}

  async def scenario_selection():
    out = {}
    # (a) env knob through LocalAgentConfig(env=...) with the SDK's default model names
    cfg_a = LocalAgentConfig(api_key="emulator-fake-key", save_dir=tempfile.mkdtemp(prefix="agsdk_check_"),
                             env={"ANTIGRAVITY_EMULATOR_SCENARIO": runner.extras or "demo"})
    async with Agent(cfg_a) as agent:
      out["env_knob"] = (await (await agent.chat("hello env")).text())[:120]
    # (b) nothing chosen: default model names, no env
    cfg_b = LocalAgentConfig(api_key="emulator-fake-key", save_dir=tempfile.mkdtemp(prefix="agsdk_check_"))
    async with Agent(cfg_b) as agent:
      out["default"] = (await (await agent.chat("hello default")).text())[:120]
    if runner.extras:
      check(out["env_knob"].startswith("extras echo"), f"env knob ignored: {out['env_knob']!r}")
    return out

  async def slow_async_tool(item: str) -> str:
    """A slow async tool.

    Args:
      item: Anything.
    """
    calls.append(("slow_async_tool", item))
    await asyncio.sleep(2.0)
    return f"slow async result {item}"

  async def cancel_during_tool():
    if not extras_model:
      raise ScenarioFailure("needs --extras")
    calls.clear()
    async with Agent(cfg(model=extras_model, tools=[slow_async_tool])) as agent:
      resp = await agent.chat("slowtool now")
      err = None
      try:
        async for c in resp.chunks:
          if isinstance(c, types.ToolCall):
            await asyncio.sleep(0.3)
            await resp.cancel()
      except BaseException as e:  # pylint: disable=broad-except
        err = e
      await asyncio.sleep(2.5)  # let the late toolResponse reach the harness
      t2 = await (await agent.chat("after cancel")).text()
    check(isinstance(err, types.AntigravityCancelledError), f"expected AntigravityCancelledError, got {err!r}")
    check("after cancel" in t2, f"turn after cancel: {t2!r}")
    return {"error": repr(err), "next": t2, "late_tool_responses": sum(1 for f in CURRENT_LOG.outbound() if f["json"] and "toolResponse" in f["json"])}

  async def cancel_during_question():
    if not extras_model:
      raise ScenarioFailure("needs --extras")
    gate = asyncio.Event()

    @hooks.on_interaction
    async def slow(spec):
      await gate.wait()
      return hooks.QuestionHookResult(responses=[types.QuestionResponse(selected_option_ids=["1"])])

    async with Agent(cfg(**interactive(model=extras_model, hooks=[slow]))) as agent:
      resp = await agent.chat("qcancel now")
      async def canceller():
        await asyncio.sleep(0.5)
        await resp.cancel()
      task = asyncio.create_task(canceller())
      err = None
      try:
        await resp.text()
      except BaseException as e:  # pylint: disable=broad-except
        err = e
      await task
      gate.set()  # the hook now answers a question that was cancelled
      await asyncio.sleep(0.5)
      t2 = await (await agent.chat("after cancel")).text()
    check(isinstance(err, types.AntigravityCancelledError), f"expected AntigravityCancelledError, got {err!r}")
    check("after cancel" in t2, f"turn after cancel: {t2!r}")
    return {"error": repr(err), "next": t2}

  async def two_tools_one_turn():
    if not extras_model:
      raise ScenarioFailure("needs --extras")
    calls.clear()
    async with Agent(cfg(model=extras_model, tools=[lookup_fruit_sku])) as agent:
      t = await (await agent.chat("twotools please")).text()
    check([c[1] for c in calls] == ["apple", "pear"], f"calls={calls}")
    return {"text": t}

  def image_tool(name: str):
    """Returns an image.

    Args:
      name: Anything.
    """
    png = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                        "1f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082")
    return {"caption": f"picture of {name}", "image": types.Image(data=png, mime_type="image/png")}

  async def media_tool_result():
    async with Agent(cfg(tools=[image_tool])) as agent:
      t = await (await agent.chat("call image_tool for a cat")).text()
    outs = [f["json"] for f in CURRENT_LOG.outbound() if f["json"] and "toolResponse" in f["json"]]
    check(outs and outs[0]["toolResponse"].get("supplementalMedia"), f"no supplementalMedia sent: {outs}")
    return {"text": t}

  def complex_tool(tags: list[str], mode: Literal["fast", "slow"], limit: int, ratio: float,
                   nested: dict[str, int], maybe: Optional[str] = None) -> dict:
    """A tool with a richer schema.

    Args:
      tags: Some tags.
      mode: The mode.
      limit: A limit.
      ratio: A ratio.
      nested: A mapping.
      maybe: Optional.
    """
    calls.append(("complex_tool", tags, mode, limit, ratio, nested, maybe))
    check(isinstance(tags, list) and all(isinstance(x, str) for x in tags), f"tags={tags!r}")
    check(mode in ("fast", "slow"), f"mode={mode!r}")
    check(isinstance(limit, int), f"limit={limit!r}")
    return {"ok": True}

  def no_arg_tool() -> str:
    """Takes nothing."""
    calls.append(("no_arg_tool",))
    return "nothing needed"

  async def schema_variety():
    calls.clear()
    out = {}
    async with Agent(cfg(tools=[complex_tool, no_arg_tool])) as agent:
      init = json.loads([f["raw"] for f in CURRENT_LOG.outbound() if '"config"' in f["raw"]][0])
      out["schemas"] = {t["name"]: t["parametersJsonSchema"] for t in init["config"]["tools"]}
      out["complex"] = (await (await agent.chat("please run complex_tool with mode: slow")).text())[:200]
      out["noarg"] = (await (await agent.chat("please run no_arg_tool")).text())[:200]
    out["calls"] = calls[:]
    check(len(calls) == 2, f"calls={calls}")
    check("Error" not in out["complex"] and "Error" not in out["noarg"], f"tool errors: {out}")
    return out

  async def unicode_thinking_and_args():
    if not extras_model:
      raise ScenarioFailure("needs --extras")
    async with Agent(cfg(model=extras_model)) as agent:
      resp = await agent.chat("unithink")
      t = await resp.text()
      th = "".join([x async for x in resp.thoughts])
    check("\U0001F680" in th and "\U0001F600" in t, f"thinking={th!r} text={t!r}")
    return {"text": t, "thinking": th}

  async def faults():
    if not extras_model:
      raise ScenarioFailure("needs --extras")
    out = {}
    for word in ("sockclose", "procexit", "malformed"):
      try:
        async with Agent(cfg(model=extras_model)) as agent:
          t = await asyncio.wait_for((await agent.chat(word)).text(), 10)
          out[word] = f"no error: {t!r}"
      except BaseException as e:  # pylint: disable=broad-except
        out[word] = f"{type(e).__name__}: {str(e)[:200]}"
    for k, v in out.items():
      check(not v.startswith("no error") and not v.startswith("TimeoutError"), f"{k}: {v}")
    return out

  async def mcp_dead_server():
    caps_policies = [policy.allow_all()]
    dead = types.McpStdioServer(name="dead_server", command="/nonexistent/mcp-server", args=[])
    try:
      async with Agent(cfg(mcp_servers=[dead], policies=caps_policies)) as agent:
        t = await (await agent.chat("hello with a dead MCP server")).text()
        return {"outcome": f"turn succeeded: {t[:80]!r}"}
    except Exception as e:  # pylint: disable=broad-except
      return {"outcome": f"{type(e).__name__}: {str(e)[:200]}"}

  async def deterministic_knob():
    async with Agent(cfg(env={"ANTIGRAVITY_EMULATOR_DETERMINISTIC": "1"})) as agent:
      t = await (await agent.chat("hello deterministic")).text()
      cid = agent.conversation_id
    return {"text": t[:60], "conversation_id": cid}

  async def older_release_against_sdk():
    # Expected to fail: an older harness than the SDK. 0.1.8 puts envelope usageMetadata (field 20)
    # that a 0.1.10 SDK lacks; 0.1.10 refuses the agentBehavior a 0.1.14 SDK puts in its init.
    older = "0.1.8" if sdk_version() == "0.1.10" else "0.1.10"
    try:
      async with Agent(cfg(env={"ANTIGRAVITY_EMULATOR_HARNESS_VERSION": older})) as agent:
        t = await asyncio.wait_for((await agent.chat("hello old dialect")).text(), 10)
        outcome = f"no error: {t[:60]!r}"
    except BaseException as e:  # pylint: disable=broad-except
      outcome = f"{type(e).__name__}: {str(e)[:240]}"
    check(not outcome.startswith("no error"), f"an SDK newer than its harness went unnoticed: {outcome}")
    return {"older_release": older, "outcome": outcome}

  async def run_command_output_encoding():
    if not extras_model:
      raise ScenarioFailure("needs --extras")
    ws = tempfile.mkdtemp(prefix="agsdk_ws_")
    out = {}
    for word in ("chunkout", "bigout"):
      try:
        async with Agent(cfg(model=extras_model, workspaces=[ws], policies=[policy.allow_all()])) as agent:
          out[word] = (await (await agent.chat(f"{word} please")).text())[:80]
      except Exception as e:  # pylint: disable=broad-except
        out[word] = f"{type(e).__name__}: {str(e)[:300]}"
      done = [f["json"] for f in CURRENT_LOG.inbound() if f["json"] and f["json"].get("stepUpdate", {}).get("runCommand", {}).get("combinedOutput") is not None]
      if done:
        co = done[-1]["stepUpdate"]["runCommand"]["combinedOutput"]
        out[word + "_output"] = {"len": len(co), "tail": co[-6:], "replacement_chars": co.count("\ufffd"),
                                 "lone_surrogates": sum(1 for ch in co if 0xD800 <= ord(ch) <= 0xDFFF)}
    check(not out["chunkout"].startswith("Antigravity") and not out["bigout"].startswith("Antigravity"), json.dumps(out))
    for w in ("chunkout", "bigout"):
      o = out.get(w + "_output", {})
      check(o.get("replacement_chars", 0) == 0 and o.get("lone_surrogates", 0) == 0, f"{w}: {o}")
    return out

  async def post_turn_race():
    seen = []

    @hooks.post_turn
    async def slow_post(text: str):
      await asyncio.sleep(1.0)
      seen.append(text[:30])

    async with Agent(cfg(hooks=[slow_post])) as agent:
      t1 = await (await agent.chat("first")).text()
      t2 = await (await agent.chat("second")).text()  # sent while POST_TURN of turn 1 is pending
      await asyncio.sleep(1.5)
    check("first" in t1 and "second" in t2, f"t1={t1!r} t2={t2!r}")
    check(len(seen) == 2, f"post_turn calls: {seen}")
    return {"post_turn": seen}

  # -- 10. strictness: frames the SDK would never send ------------------------
  async def refuses_unknown_field_in_init():
    # The real harness refuses an init with one unknown field and exits: the SDK cannot start.
    global REWRITE_FIRST_FRAME

    def add_field(raw: str) -> str:
      frame = json.loads(raw)
      frame["config"]["futureField"] = True
      return json.dumps(frame)

    REWRITE_FIRST_FRAME = add_field
    try:
      async with Agent(cfg()) as agent:
        outcome = f"no error: {(await asyncio.wait_for((await agent.chat('hello')).text(), 10))[:60]!r}"
    except BaseException as e:  # pylint: disable=broad-except
      outcome = f"{type(e).__name__}: {str(e)[:400]}"
    finally:
      REWRITE_FIRST_FRAME = None
    await asyncio.sleep(0.3)  # the stderr reader thread logs the last lines
    refusal = [line for line in CURRENT_LOG.stderr if 'Failed to parse initial message: proto:' in line and 'unknown field "futureField"' in line]
    check(not outcome.startswith("no error"), f"init with an unknown field accepted: {outcome}")
    check(len(refusal) == 1 or 'unknown field \\"futureField\\"' in outcome or 'unknown field "futureField"' in outcome, f"no refusal naming the field; stderr={CURRENT_LOG.stderr[-5:]} outcome={outcome}")
    return {"outcome": outcome, "stderr": refusal}

  async def refuses_unknown_field_later():
    # A later frame the harness cannot parse is dropped with a stderr line; the session goes on.
    async with Agent(cfg()) as agent:
      first = await (await agent.chat("first turn")).text()
      turns_before = sum(1 for f in CURRENT_LOG.inbound() if f["json"] and f["json"].get("trajectoryStateUpdate", {}).get("state") == "STATE_RUNNING")
      parts = {"parts": [{"text": "never runs"}]} if sdk_version() != "0.1.10" else "never runs"
      await CURRENT_SOCKET.inject(json.dumps({"userInput": parts, "futureField": 1}))
      await asyncio.sleep(1.0)
      turns_after = sum(1 for f in CURRENT_LOG.inbound() if f["json"] and f["json"].get("trajectoryStateUpdate", {}).get("state") == "STATE_RUNNING")
      refusal = [line for line in CURRENT_LOG.stderr if "Failed to parse input event: proto:" in line and 'unknown field "futureField"' in line]
      check(turns_after == turns_before, "a frame with an unknown field started a turn")
      check(len(refusal) == 1, f"no stderr line naming the field: {CURRENT_LOG.stderr[-5:]}")
      second = await (await agent.chat("second turn")).text()
      check("second turn" in second, f"the session did not go on: {second!r}")
    return {"first": first[:40], "stderr": refusal, "second": second[:40]}

  # -- 11. generations ----------------------------------------------------------
  async def autonomous_does_not_ask():
    if behaviours is None:
      raise ScenarioSkipped("0.1.10 has no agent behaviour: its agents always ask")
    asked = []

    @hooks.on_interaction
    async def answer(spec):
      asked.append(1)
      return hooks.QuestionHookResult(responses=[types.QuestionResponse(selected_option_ids=["2"])])

    async with Agent(cfg(hooks=[answer])) as agent:  # the SDK's default: AUTONOMOUS
      t = await (await agent.chat("ask me to choose between red, green or blue")).text()
    check(asked == [], "an autonomous agent asked a question")
    check("red" in t, f"expected the agent's own first choice in {t!r}")
    return {"text": t}

  async def clean_shutdown():
    save_dir = tempfile.mkdtemp(prefix="agsdk_shutdown_")
    async with Agent(cfg(save_dir=save_dir)) as agent:
      await (await agent.chat("remember this")).text()
      cid = agent.conversation_id
    await asyncio.sleep(0.5)
    stored = pathlib.Path(save_dir, "conversations", f"{cid}.json")
    check(stored.exists(), f"conversation not persisted at {stored}")
    check(any("shutting down" in line for line in CURRENT_LOG.stderr), f"no orderly shutdown in stderr: {CURRENT_LOG.stderr[-3:]}")
    return {"persisted": str(stored.name)}

  async def catalogue_matches_descriptor():
    # The SDK's own descriptor is the exact protocol of its release: the catalogue the emulator and
    # the client share must accept exactly its fields and enum names for that release.
    from google.antigravity.proto import localharness_pb2
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import catalogue_check
    version = os.environ["ANTIGRAVITY_EMULATOR_HARNESS_VERSION"]
    findings = catalogue_check.compare(version, localharness_pb2)
    check(findings == [], "\n".join(findings[:40]))
    return {"release": version, "fields_compared": len(catalogue_check.descriptor_paths(localharness_pb2))}

  return {
      "text_turn": text_turn,
      "streaming": streaming,
      "custom_tool": custom_tool,
      "custom_tool_typed": custom_tool_typed,
      "custom_tool_error": custom_tool_error,
      "question": question,
      "question_freeform_and_cancel": question_freeform_and_cancel,
      "question_disabled": question_disabled,
      "multi_turn_mix": multi_turn_mix,
      "cancel": cancel,
      "resume": resume,
      "lifecycle_hooks": lifecycle_hooks,
      "pre_turn_deny": pre_turn_deny,
      "pre_tool_deny": pre_tool_deny,
      "policy_static_deny": policy_static_deny,
      "policy_dynamic": policy_dynamic,
      "builtin_list_dir": builtin_list_dir,
      "structured_output": structured_output,
      "errors": errors,
      "subagent": subagent,
      "compaction": compaction,
      "tool_confirmation": tool_confirmation,
      "unknown_field_injection": unknown_field_injection,
      "policy_ask_user": policy_ask_user,
      "slow_question_hook": slow_question_hook,
      "slow_custom_tool": slow_custom_tool,
      "slow_pre_tool_hook": slow_pre_tool_hook,
      "unicode_split": unicode_split,
      "large_tool_result": large_tool_result,
      "chat_while_busy": chat_while_busy,
      "trigger_flow": trigger_flow,
      "multimodal_input": multimodal_input,
      "resume_twice": resume_twice,
      "builtins_all": builtins_all,
      "run_command_default_policy": run_command_default_policy,
      "scenario_selection": scenario_selection,
      "cancel_during_tool": cancel_during_tool,
      "cancel_during_question": cancel_during_question,
      "two_tools_one_turn": two_tools_one_turn,
      "media_tool_result": media_tool_result,
      "schema_variety": schema_variety,
      "unicode_thinking_and_args": unicode_thinking_and_args,
      "faults": faults,
      "mcp_dead_server": mcp_dead_server,
      "deterministic_knob": deterministic_knob,
      "older_release_against_sdk": older_release_against_sdk,
      "run_command_output_encoding": run_command_output_encoding,
      "post_turn_race": post_turn_race,
      "refuses_unknown_field_in_init": refuses_unknown_field_in_init,
      "refuses_unknown_field_later": refuses_unknown_field_later,
      "autonomous_does_not_ask": autonomous_does_not_ask,
      "clean_shutdown": clean_shutdown,
      "catalogue_matches_descriptor": catalogue_matches_descriptor,
  }


def sdk_version() -> str:
  """The installed google-antigravity version (the release whose protocol the SDK speaks)."""
  import importlib.metadata
  return importlib.metadata.version("google-antigravity")


async def amain(args: argparse.Namespace) -> int:
  install_tap()
  runner = Runner(args.extras, pathlib.Path(args.frames_dir) if args.frames_dir else None)
  scenarios = build_scenarios(runner)
  names = args.only or (CORE_SCENARIOS if args.core else list(scenarios))
  for name in names:
    await runner.run(name, scenarios[name])
  if args.json_out:
    with open(args.json_out, "w") as fh:
      json.dump(runner.results, fh, indent=2, default=str)
  bad = [r for r in runner.results if r["status"] not in ("PASS", "SKIP")]
  skipped = [r for r in runner.results if r["status"] == "SKIP"]
  wire = sum(len(r["wire_findings"]) for r in runner.results)
  print(f"\n{len(runner.results) - len(bad) - len(skipped)} passed, {len(bad)} failed, {len(skipped)} skipped ({wire} wire findings)")
  return 1 if bad else 0


def main() -> None:
  p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
  default_extras = os.path.join(os.path.dirname(os.path.abspath(__file__)), "python-sdk-extras.json")
  p.add_argument("--extras", default=default_extras if os.path.exists(default_extras) else None,
                 help="extra scenario JSON (used as model emulator:<path>); default: python-sdk-extras.json beside this script")
  p.add_argument("--only", nargs="*", help="scenario names to run")
  p.add_argument("--core", action="store_true", help="run only the core checks (CORE_SCENARIOS)")
  p.add_argument("--frames-dir", help="write each scenario's frames as JSONL here")
  p.add_argument("--json-out", help="write the results as JSON here")
  p.add_argument("--timeout", type=float, default=SCENARIO_TIMEOUT_S)
  p.add_argument("--harness-version",
                 help="the harness release the emulator plays (ANTIGRAVITY_EMULATOR_HARNESS_VERSION); default: the installed SDK's version")
  args = p.parse_args()
  if "ANTIGRAVITY_HARNESS_PATH" not in os.environ:
    sys.exit("set ANTIGRAVITY_HARNESS_PATH to an executable that starts the emulator")
  # The emulator plays the release of the SDK that drives it: every harness this script starts
  # inherits the variable (the SDK passes the process environment on).
  os.environ["ANTIGRAVITY_EMULATOR_HARNESS_VERSION"] = args.harness_version or sdk_version()
  print(f"google-antigravity {sdk_version()} against the emulator playing harness {os.environ['ANTIGRAVITY_EMULATOR_HARNESS_VERSION']}")
  globals()["SCENARIO_TIMEOUT_S"] = args.timeout
  logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                      format="%(levelname)s %(name)s: %(message)s")
  sys.exit(asyncio.run(amain(args)))


if __name__ == "__main__":
  main()
