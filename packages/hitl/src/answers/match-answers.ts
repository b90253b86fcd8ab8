import { HitlError } from "../errors/hitl-error.js";
import type { InterruptAnswer } from "../interrupts/interrupt-answer.js";
import type { FrontendToolOutcome, ParkedFrontendTool, ParkedInterrupt } from "../parking/parked-item.js";
import type { ParkingLot } from "../parking/parking-lot.js";
import type { SchemaValidator } from "../schema/schema-validator.js";
import { canonicalJson } from "../json/canonical-json.js";
import type { CollectedAnswers, InterruptAnswerOffer } from "./collect-answers.js";

export interface AnswerPlan {
  interrupts: { item: ParkedInterrupt; answer: InterruptAnswer }[];
  frontendTools: { item: ParkedFrontendTool; outcome: FrontendToolOutcome }[];
  /** Answers that were harmless no-ops (replays of settled ids, a bare command with nothing parked), for logging. */
  ignored: string[];
}

export interface MatchOptions {
  now: number;
  validator: SchemaValidator;
  /** Accept the loose shapes each interrupt kind knows how to read (default true). */
  lenientAnswers: boolean;
}

/**
 * Decides what a run's answers settle, without settling anything: any refusal throws before a single
 * parked item is touched, so a refused run leaves every interrupt parked.
 *
 * Rules: an interrupt answer names its interrupt, or goes to the only parked interrupt; with several
 * parked and no id it is refused. It never settles a frontend tool. An id this thread never raised
 * is refused; a replay of an already settled id is a harmless no-op. A payload must validate against
 * the interrupt's `responseSchema`. ToolMessages settle parked frontend tools and are otherwise
 * ignored, because clients resend their whole transcript on every run.
 */
export function matchAnswers(collected: CollectedAnswers, lot: ParkingLot, options: MatchOptions): AnswerPlan {
  const plan: AnswerPlan = { interrupts: [], frontendTools: [], ignored: [] };
  const chosen = new Map<string, { offer: InterruptAnswerOffer; answer: InterruptAnswer }>();
  for (const offer of collected.interruptAnswers) {
    const item = targetOf(offer, lot, plan);
    if (item === undefined) continue;
    if (item.expiresAtMs <= options.now) {
      throw new HitlError("INTERRUPT_EXPIRED", `Interrupt ${item.id} expired at ${item.interrupt.expiresAt ?? "its deadline"}; it can no longer be answered.`, { subject: item.id });
    }
    const answer = answerFor(item, offer, options);
    const earlier = chosen.get(item.id);
    if (earlier !== undefined) {
      if (canonicalJson(earlier.answer) === canonicalJson(answer)) continue;
      throw new HitlError("AMBIGUOUS_ANSWER", `Interrupt ${item.id} was answered twice, differently, in one run; send one answer.`, { subject: item.id });
    }
    chosen.set(item.id, { offer, answer });
    plan.interrupts.push({ item, answer });
  }
  for (const result of collected.toolResults) {
    const item = lot.get(result.toolCallId);
    if (item?.kind !== "frontend-tool" || plan.frontendTools.some((entry) => entry.item.id === item.id)) continue;
    const outcome: FrontendToolOutcome = result.error === undefined ? { type: "result", content: result.content } : { type: "error", message: result.error };
    plan.frontendTools.push({ item, outcome });
  }
  return plan;
}

function targetOf(offer: InterruptAnswerOffer, lot: ParkingLot, plan: AnswerPlan): ParkedInterrupt | undefined {
  if (offer.interruptId !== undefined) {
    const item = lot.get(offer.interruptId);
    if (item?.kind === "frontend-tool") {
      throw new HitlError("ANSWER_FOR_FRONTEND_TOOL", `${offer.interruptId} is a frontend tool call (${item.toolName}); answer it with a ToolMessage carrying that toolCallId, not an interrupt answer.`, { subject: offer.interruptId });
    }
    if (item !== undefined) return item;
    const settled = lot.settledRecord(offer.interruptId);
    if (settled === "expired") throw new HitlError("INTERRUPT_EXPIRED", `Interrupt ${offer.interruptId} expired before it was answered.`, { subject: offer.interruptId });
    if (settled !== undefined) {
      plan.ignored.push(`${offer.interruptId} was already ${settled}; the repeated answer changes nothing`);
      return undefined;
    }
    throw new HitlError("UNKNOWN_INTERRUPT", `No interrupt with id ${offer.interruptId} is waiting on this thread.`, { subject: offer.interruptId });
  }
  const parked = lot.interrupts();
  if (parked.length === 1) return parked[0];
  if (parked.length > 1) {
    throw new HitlError("AMBIGUOUS_ANSWER", `${parked.length} interrupts are waiting (${parked.map((item) => item.id).join(", ")}); the answer must name one by interruptId. Nothing was resolved.`);
  }
  const tools = lot.frontendTools();
  if (tools.length > 0) {
    throw new HitlError("ANSWER_FOR_FRONTEND_TOOL", `Only frontend tool calls are waiting (${tools.map((item) => `${item.toolName} ${item.id}`).join(", ")}); answer them with ToolMessages, not an interrupt answer.`);
  }
  // A bare command names nothing, so a retried request carrying it again must stay harmless.
  plan.ignored.push("an interrupt answer arrived while nothing was waiting");
  return undefined;
}

function answerFor(item: ParkedInterrupt, offer: InterruptAnswerOffer, options: MatchOptions): InterruptAnswer {
  if (offer.status === "cancelled") return offer.payload === undefined ? { status: "cancelled" } : { status: "cancelled", payload: offer.payload };
  const schema = item.interrupt.responseSchema;
  if (schema === undefined) return { status: "resolved", payload: offer.payload };
  const direct = options.validator.check(schema, offer.payload);
  if (direct.valid) return { status: "resolved", payload: offer.payload };
  if (options.lenientAnswers && item.coerce !== undefined) {
    const coerced = item.coerce(offer.payload);
    if (options.validator.check(schema, coerced).valid) return { status: "resolved", payload: coerced };
  }
  throw new HitlError("INVALID_ANSWER", `The answer to interrupt ${item.id} does not match its responseSchema: ${direct.problems.map((problem) => problem.replace(/\.$/, "")).join("; ")}. The interrupt is still waiting.`, { subject: item.id });
}
