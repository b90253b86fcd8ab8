import { HttpAgent, type Interrupt, type Message, type ResumeEntry, type State } from "@ag-ui/client";
import { AntigravityHttpAgent } from "@ag-ui-antigravity/express/client";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Feature } from "../features/featureCatalog";
import { runAutomaticTool, type FrontendToolEffects } from "../features/frontendTools";
import { unansweredFrontendCalls } from "./conversation";
import { newId } from "./ids";
import { deniedToolCallIds as deniedIn } from "../features/approval";
import { parseJsonSafely } from "./json";
import { saveThread, titleFor, type StoredThread } from "./threadStore";

export type RunStatus = "idle" | "running" | "waiting" | "error";

export interface RunErrorInfo {
  message: string;
  code: string | undefined;
}

export interface AgentSession {
  threadId: string;
  messages: Message[];
  state: State;
  status: RunStatus;
  isRunning: boolean;
  pendingInterrupts: Interrupt[];
  /** Tool calls whose approval the user refused in this thread. */
  deniedToolCallIds: readonly string[];
  error: RunErrorInfo | undefined;
  /** True when the last run was stopped by the user (not an error). */
  stopped: boolean;
  sendMessage(text: string): void;
  resume(entries: ResumeEntry[]): void;
  answerToolCall(toolCallId: string, content: string): void;
  updateState(state: State): void;
  /** Stops the streaming run; the client ends it without an error. */
  stop(): void;
}

/**
 * Automatic frontend tools answer themselves and start a follow-up run; a model that keeps calling
 * them would loop forever, so the chain is cut after this many consecutive follow-ups.
 */
const maximumAutomaticFollowUps = 5;

/**
 * One thread of one feature, driven over HTTP by `@ag-ui/client`'s HttpAgent. The agent owns the
 * conversation (messages, state, pending interrupts); this hook mirrors it into React state, runs
 * the page's frontend tools, and stores the thread in localStorage after every change that matters.
 */
export function useAgentSession(
  feature: Feature,
  threadId: string,
  stored: StoredThread | undefined,
  effects: FrontendToolEffects,
  onSaved: () => void,
): AgentSession {
  const agent = useMemo(() => {
    const config = {
      url: `/${feature.id}`,
      threadId,
      initialMessages: stored?.messages ?? [],
      initialState: stored?.state ?? feature.initialState(),
    };
    // A reconnecting page needs AG-UI `connect` (and resumes dropped streams); the others plain HttpAgent.
    const created = feature.reconnects === true ? new AntigravityHttpAgent(config) : new HttpAgent(config);
    created.pendingInterrupts = stored?.pendingInterrupts ?? [];
    return created;
    // The agent is created once per thread; `stored` is only its starting point, so it is not a dependency.
  }, [feature.id, threadId]);

  const [messages, setMessages] = useState<Message[]>(() => [...agent.messages]);
  const [state, setState] = useState<State>(() => agent.state);
  const [isRunning, setIsRunning] = useState(false);
  const [pendingInterrupts, setPendingInterrupts] = useState<Interrupt[]>(() => agent.pendingInterrupts);
  const [deniedToolCallIds, setDeniedToolCallIds] = useState<string[]>(() => stored?.deniedToolCallIds ?? []);
  // The same list for persist(), which runs outside React's render.
  const denied = useRef(deniedToolCallIds);
  const [error, setError] = useState<RunErrorInfo | undefined>(undefined);
  const [stopped, setStopped] = useState(false);
  // Set by stop(): the client then reports the abort as RUN_ERROR{code:"abort"}, which the user
  // asked for and so is not shown as a failure.
  const stopRequested = useRef(false);
  const effectsRef = useRef(effects);
  effectsRef.current = effects;
  const onSavedRef = useRef(onSaved);
  onSavedRef.current = onSaved;
  const createdAt = useRef(stored?.createdAt ?? Date.now());
  const mounted = useRef(true);

  // persist() for the subscription below, which is made before persist() exists.
  const persistRef = useRef<() => void>(() => undefined);
  // Whether the page follows its thread through a `connect` stream right now (reconnecting features).
  const following = useRef<Promise<unknown> | undefined>(undefined);

  useEffect(() => {
    mounted.current = true;
    const subscription = agent.subscribe({
      onMessagesChanged: ({ messages: changed }) => setMessages([...changed]),
      // A reply that reached a followed thread (a replayed run, a reminder) is saved as it completes.
      onNewMessage: () => {
        if (following.current !== undefined) persistRef.current();
      },
      // A run replayed or started by the server shows as running while it streams.
      onRunStartedEvent: () => {
        if (following.current !== undefined) setIsRunning(true);
      },
      onRunFinalized: () => {
        if (following.current !== undefined) setIsRunning(false);
      },
      onRunFinishedEvent: () => {
        if (following.current !== undefined) setIsRunning(false);
      },
      onStateChanged: ({ state: changed }) => setState(changed),
      onRunErrorEvent: ({ event }) => {
        if (stopRequested.current && event.code === "abort") setStopped(true);
        else setError({ message: event.message, code: event.code });
      },
    });
    return () => {
      mounted.current = false;
      subscription.unsubscribe();
      // Leaving the thread (another thread, another page) ends its run rather than letting it
      // stream into a view nobody sees.
      if (agent.isRunning) {
        stopRequested.current = true;
        agent.abortRun();
      }
    };
  }, [agent]);

  const interactiveWaiting = useCallback(
    () => unansweredFrontendCalls(agent.messages, feature.frontendTools).some(({ tool }) => tool.mode === "interactive"),
    [agent, feature.frontendTools],
  );

  const persist = useCallback(() => {
    if (agent.messages.length === 0) return;
    saveThread(feature.id, {
      threadId,
      title: titleFor(agent.messages),
      createdAt: createdAt.current,
      updatedAt: Date.now(),
      messages: agent.messages,
      state: agent.state,
      pendingInterrupts: agent.pendingInterrupts,
      deniedToolCallIds: denied.current,
      waiting: agent.pendingInterrupts.length > 0 || interactiveWaiting(),
    });
    // A run that ends after its view was left still saves the thread, but must not make the page
    // switch back to it.
    if (mounted.current) onSavedRef.current();
  }, [agent, feature.id, threadId, interactiveWaiting]);
  persistRef.current = persist;

  /**
   * Reconnecting features: follows the thread through AG-UI `connect` with `stayOpen`: the run in
   * flight (after a reload) is replayed and finished, then every turn the server starts arrives
   * live, until the page sends a message, leaves the thread, or unmounts.
   */
  const follow = useCallback(() => {
    if (feature.reconnects !== true || !mounted.current || agent.isRunning || agent.messages.length === 0) return;
    const tools = feature.frontendTools.map((tool) => tool.definition);
    const followed = agent
      .connectAgent({ tools, context: [], forwardedProps: { stayOpen: true } })
      .catch((thrown: unknown) => {
        if (!stopRequested.current && mounted.current) setError({ message: thrown instanceof Error ? thrown.message : String(thrown), code: undefined });
      })
      .finally(() => {
        if (following.current === followed) following.current = undefined;
        setPendingInterrupts([...agent.pendingInterrupts]);
        setMessages([...agent.messages]);
        persist();
      });
    following.current = followed;
  }, [agent, feature.reconnects, feature.frontendTools, persist]);

  /** Stops following the thread (the page is about to run), and waits until the stream is let go. */
  const stopFollowing = useCallback(async () => {
    const followed = following.current;
    if (followed === undefined) return;
    await agent.detachActiveRun();
    await followed;
  }, [agent]);

  // A reconnecting page picks its thread up on load: the reply still streaming, or what came since.
  useEffect(() => {
    follow();
  }, [follow]);

  const run = useCallback(
    async (resume: ResumeEntry[] | undefined) => {
      const tools = feature.frontendTools.map((tool) => tool.definition);
      for (let followUp = 0; followUp <= maximumAutomaticFollowUps; followUp += 1) {
        setError(undefined);
        setStopped(false);
        stopRequested.current = false;
        setIsRunning(true);
        let failed = false;
        // A reconnecting page saves the thread before the run, so a reload mid-reply knows it.
        if (feature.reconnects === true) persist();
        try {
          await agent.runAgent({ tools, context: [], ...(followUp === 0 && resume !== undefined ? { resume } : {}) }, {
            onRunErrorEvent: () => {
              failed = true;
            },
          });
        } catch (thrown) {
          failed = true;
          // A RUN_ERROR was already shown with its code; anything else (HTTP status, a stream the
          // verifier rejected) is shown as the error itself.
          if (!stopRequested.current) setError((current) => current ?? { message: thrown instanceof Error ? thrown.message : String(thrown), code: undefined });
        } finally {
          setIsRunning(false);
          setPendingInterrupts([...agent.pendingInterrupts]);
          setMessages([...agent.messages]);
          persist();
        }
        if (failed || agent.pendingInterrupts.length > 0) return;
        const automatic = unansweredFrontendCalls(agent.messages, feature.frontendTools).filter(({ tool }) => tool.mode === "automatic");
        if (automatic.length === 0) return;
        for (const { call } of automatic) {
          const content = runAutomaticTool(call.function.name, parseJsonSafely(call.function.arguments), effectsRef.current);
          agent.addMessage({ id: newId(), role: "tool", toolCallId: call.id, content });
        }
      }
    },
    [agent, feature.frontendTools, persist],
  );

  const sendMessage = useCallback(
    (text: string) => {
      if (text.trim() === "") return;
      const send = (): void => {
        if (agent.isRunning) return;
        agent.addMessage({ id: newId(), role: "user", content: text.trim() });
        void run(undefined).then(follow);
      };
      // A followed thread is let go first: one request at a time per thread.
      if (following.current !== undefined) void stopFollowing().then(send);
      else send();
    },
    [agent, run, follow, stopFollowing],
  );

  const resume = useCallback(
    (entries: ResumeEntry[]) => {
      if (agent.isRunning) return;
      const refused = deniedIn(agent.pendingInterrupts, entries);
      if (refused.length > 0) {
        denied.current = [...denied.current, ...refused];
        setDeniedToolCallIds(denied.current);
      }
      void run(entries);
    },
    [agent, run],
  );

  const answerToolCall = useCallback(
    (toolCallId: string, content: string) => {
      if (agent.isRunning) return;
      agent.addMessage({ id: newId(), role: "tool", toolCallId, content });
      void run(undefined);
    },
    [agent, run],
  );

  const updateState = useCallback(
    (next: State) => {
      agent.setState(next);
      setState(next);
      persist();
    },
    [agent, persist],
  );

  const stop = useCallback(() => {
    stopRequested.current = true;
    agent.abortRun();
  }, [agent]);

  const waiting = pendingInterrupts.length > 0 || unansweredFrontendCalls(messages, feature.frontendTools).some(({ tool }) => tool.mode === "interactive");
  const status: RunStatus = isRunning ? "running" : error !== undefined ? "error" : waiting ? "waiting" : "idle";

  return { threadId, messages, state, status, isRunning, pendingInterrupts, deniedToolCallIds, error, stopped, sendMessage, resume, answerToolCall, updateState, stop };
}
