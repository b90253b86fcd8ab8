import type { Interrupt, ResumeEntry } from "@ag-ui/client";
import { useState } from "react";
import { isRecord } from "../agent/json";
import { isApprovalInterrupt } from "../features/approval";
import type { AgentSession } from "../agent/useAgentSession";
import { ApprovalInterrupt } from "./ApprovalInterrupt";
import { QuestionInterrupt } from "./QuestionInterrupt";
import { SchemaInterrupt } from "./SchemaInterrupt";

/**
 * The parked run's open interrupts. AG-UI 1.0 only accepts a resume that answers every open
 * interrupt at once, so answers are collected here and sent together when the last one is given.
 */
export function InterruptPanel({ session }: { session: AgentSession }) {
  const interrupts = session.pendingInterrupts;
  const [answers, setAnswers] = useState<Record<string, ResumeEntry>>({});

  const answer = (entry: ResumeEntry): void => {
    const next = { ...answers, [entry.interruptId]: entry };
    const complete = interrupts.map((interrupt) => next[interrupt.id]).filter((item): item is ResumeEntry => item !== undefined);
    if (complete.length === interrupts.length) {
      setAnswers({});
      session.resume(complete);
    } else {
      setAnswers(next);
    }
  };
  // The client refuses to resume an expired interrupt, so the earliest deadline is worth showing.
  const deadline = earliestDeadline(interrupts);
  const cancelAll = (): void => session.resume(interrupts.map((interrupt) => ({ interruptId: interrupt.id, status: "cancelled" })));

  return (
    <div className="interrupt-panel" data-testid="interrupt-panel">
      <div className="interrupt-panel-header">
        <span className="interrupt-pause" aria-hidden="true" />
        The agent is waiting for you
        {interrupts.length > 1 && <span className="interrupt-count">{interrupts.length} requests, answer each</span>}
        {deadline !== undefined && (
          <span className="interrupt-deadline" data-testid="interrupt-deadline" title={deadline.toISOString()}>
            answer by {deadline.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}
          </span>
        )}
      </div>
      {interrupts.map((interrupt) =>
        answers[interrupt.id] !== undefined ? (
          <div key={interrupt.id} className="interrupt-card answered" data-testid="interrupt-answered">
            Answered; waiting for the other requests.
          </div>
        ) : (
          <InterruptCard key={interrupt.id} interrupt={interrupt} session={session} onAnswer={answer} />
        ),
      )}
      <div className="interrupt-footer">
        <button type="button" className="button link" data-testid="interrupt-cancel" disabled={session.isRunning} onClick={cancelAll}>
          Cancel {interrupts.length > 1 ? "all" : "request"}
        </button>
      </div>
    </div>
  );
}

function earliestDeadline(interrupts: readonly Interrupt[]): Date | undefined {
  const times = interrupts.map((interrupt) => (interrupt.expiresAt === undefined ? Number.NaN : Date.parse(interrupt.expiresAt))).filter((time) => Number.isFinite(time));
  return times.length === 0 ? undefined : new Date(Math.min(...times));
}

interface InterruptCardProps {
  interrupt: Interrupt;
  session: AgentSession;
  onAnswer(entry: ResumeEntry): void;
}

/** Picks the UI by what the interrupt carries; unknown reasons still get a form, never a failure. */
function InterruptCard({ interrupt, session, onAnswer }: InterruptCardProps) {
  if (isApprovalInterrupt(interrupt)) return <ApprovalInterrupt interrupt={interrupt} messages={session.messages} disabled={session.isRunning} onAnswer={onAnswer} />;
  if (isRecord(interrupt.metadata) && Array.isArray(interrupt.metadata["questions"]))
    return <QuestionInterrupt interrupt={interrupt} disabled={session.isRunning} onAnswer={onAnswer} />;
  return <SchemaInterrupt interrupt={interrupt} disabled={session.isRunning} onAnswer={onAnswer} />;
}
