import { useEffect, useRef } from "react";
import type { AgentSession } from "../agent/useAgentSession";
import type { Feature } from "../features/featureCatalog";
import { Composer } from "./Composer";
import { InterruptPanel } from "./InterruptPanel";
import { MessageList } from "./MessageList";
import { RunErrorBanner } from "./RunErrorBanner";
import { RunStatusBadge } from "./RunStatusBadge";

interface ChatPanelProps {
  feature: Feature;
  session: AgentSession;
  background: string | undefined;
}

export function ChatPanel({ feature, session, background }: ChatPanelProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // Follow the stream: keep the newest content in view while messages grow.
  useEffect(() => {
    const element = scrollRef.current;
    if (element !== null) element.scrollTop = element.scrollHeight;
  }, [session.messages, session.pendingInterrupts, session.error]);

  const blockedByInterrupts = session.pendingInterrupts.length > 0;
  return (
    <section className="chat-panel" data-testid="chat-panel" style={background === undefined ? undefined : { background }}>
      <div className="chat-toolbar">
        <RunStatusBadge status={session.status} />
        <span className="chat-thread-id" title="Thread id">
          {session.threadId.slice(0, 8)}
        </span>
      </div>
      <div className="chat-scroll" ref={scrollRef}>
        <MessageList feature={feature} session={session} />
        {blockedByInterrupts && <InterruptPanel session={session} />}
        {session.error !== undefined && <RunErrorBanner error={session.error} />}
        {session.stopped && (
          <div className="run-stopped" data-testid="run-stopped">
            You stopped this run.
          </div>
        )}
      </div>
      <Composer
        suggestions={session.messages.length === 0 ? feature.suggestions : []}
        disabled={session.isRunning || blockedByInterrupts}
        placeholder={blockedByInterrupts ? "Answer the request above to continue…" : "Type a message…"}
        onStop={session.isRunning ? session.stop : undefined}
        onSend={session.sendMessage}
      />
    </section>
  );
}
