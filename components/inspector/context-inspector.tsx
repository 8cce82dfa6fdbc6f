"use client";

import { useEffect, useRef, useState } from "react";
import type { ContextSnapshot, SnapshotItem, SnapshotSection } from "@/lib/context/types";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { useTurnContext } from "@/hooks/use-turn-context";
import { BudgetBar } from "./budget-bar";
import { ModelCalls } from "./model-calls";
import { RetrievalTimeline } from "./retrieval-timeline";
import { SectionList } from "./section-list";
import { StepList } from "./step-list";
import { ToolList } from "./tool-list";

/**
 * What an agent saw for one reply, for debug and admin users: the budget by section and each model
 * call against it, the three memory searches in time, every section's items (excluded ones struck
 * through with the reason), the tools offered and the calls made, and the exact messages array
 * sent to the model. A modal dialog: Escape closes it and focus
 * returns to the button that opened it.
 */
export function ContextInspector({ turnId, messages, onClose }: { turnId: string; messages: MessageDto[]; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const { data: snapshot, error, isPending } = useTurnContext(turnId);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    element?.showModal();
    return () => element?.close();
  }, []);

  const bySeq = new Map(messages.map((message) => [message.seq, message]));
  const describe = (item: SnapshotItem, kind: SnapshotSection["kind"]) => {
    if (kind === "system") return "The agent's system prompt";
    if (kind === "summary") return `Summary of ${item.source ?? "earlier messages"}`;
    const message = item.seq !== undefined ? bySeq.get(item.seq) : undefined;
    if (message) {
      const author = message.author.kind === "user" ? message.author.name : message.author.kind === "agent" ? message.author.displayName : "Chorus";
      return `${author}: ${message.content.length > 90 ? `${message.content.slice(0, 87)}…` : message.content}`;
    }
    if (item.seq !== undefined) return `Message ${item.seq} (not loaded here)`;
    return item.source ?? item.id;
  };
  const json = snapshot ? JSON.stringify(snapshot.messages, null, 2) : "";

  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      aria-labelledby="inspector-title"
      className="m-0 h-full max-h-none w-full max-w-none bg-white p-0 text-slate-900 backdrop:bg-black/50 sm:m-auto sm:h-auto sm:max-h-[90vh] sm:max-w-3xl sm:rounded-xl dark:bg-slate-900 dark:text-slate-100"
    >
      <div className="flex items-center gap-2 border-b border-slate-200 px-4 py-3 dark:border-slate-800">
        <h2 id="inspector-title" className="flex-1 text-lg font-semibold">
          What the agent saw
        </h2>
        <button type="button" onClick={() => dialog.current?.close()} className="rounded-md px-2 py-1 text-sm font-medium hover:bg-slate-100 dark:hover:bg-slate-800">
          Close
        </button>
      </div>
      <div className="space-y-5 overflow-y-auto p-4 sm:max-h-[calc(90vh-4rem)]">
        {isPending && <p className="text-sm text-muted">Loading…</p>}
        {error && (
          <p role="alert" className="text-sm text-danger">
            {error.message}
          </p>
        )}
        {snapshot && (
          <>
            <p className="text-sm text-muted">
              @{snapshot.agent.handle} · {snapshot.agent.model} · {snapshot.mode} turn · {snapshot.strategy.replace("_", " ")} pruning · assembled in {snapshot.assemblyMs} ms
            </p>
            {snapshot.handoff && (
              <p className="text-sm text-muted">
                {snapshot.handoff.stopped === "depth"
                  ? `Handoff limit reached (${snapshot.handoff.depth} of ${snapshot.handoff.maxDepth} for this message): the agent answered itself.`
                  : `May hand off to ${snapshot.handoff.specialists.map((handle) => `@${handle}`).join(", ")} (${snapshot.handoff.depth} of ${snapshot.handoff.maxDepth} handoffs made for this message).`}
                {snapshot.handoff.rule !== undefined && ` ${ruleText(snapshot.handoff.rule)}`}
              </p>
            )}
            {snapshot.error === "budget" && (
              <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-danger dark:bg-red-950">
                Nothing was sent: the system prompt and the message alone do not fit the budget.
              </p>
            )}
            <section aria-labelledby="inspector-budget">
              <h3 id="inspector-budget" className="mb-2 text-sm font-semibold">
                Budget
              </h3>
              <BudgetBar snapshot={snapshot} />
              <ModelCalls calls={snapshot.calls} maxTokens={snapshot.budget.maxTokens} />
            </section>
            <section aria-labelledby="inspector-retrieval">
              <h3 id="inspector-retrieval" className="mb-2 text-sm font-semibold">
                Memory retrieval
              </h3>
              <RetrievalTimeline retrieval={snapshot.retrieval} />
            </section>
            <section aria-labelledby="inspector-sections">
              <h3 id="inspector-sections" className="mb-1 text-sm font-semibold">
                Sections
              </h3>
              <SectionList sections={snapshot.sections} describe={describe} />
            </section>
            <ToolList tools={snapshot.tools} unavailable={snapshot.toolsUnavailable} />
            <StepList steps={snapshot.steps} />
            <section aria-labelledby="inspector-messages">
              <div className="mb-1 flex items-center gap-2">
                <h3 id="inspector-messages" className="flex-1 text-sm font-semibold">
                  Messages sent to the model ({snapshot.messages.length})
                </h3>
                <button
                  type="button"
                  onClick={() => void navigator.clipboard.writeText(json).then(() => setCopied(true))}
                  className="rounded-md border border-slate-400 px-2 py-0.5 text-xs hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
                >
                  <span aria-live="polite">{copied ? "Copied" : "Copy"}</span>
                  <span className="sr-only"> the messages as JSON</span>
                </button>
              </div>
              {(snapshot.calls?.length ?? 0) > 1 && <p className="mb-1 text-xs text-muted">As the first call sent them; each later call added this turn&rsquo;s tool calls and their results.</p>}
              <pre tabIndex={0} aria-label="Messages as JSON" className="max-h-80 overflow-auto rounded-lg bg-[var(--code-bg)] p-3 text-xs">
                {json}
              </pre>
            </section>
          </>
        )}
      </div>
    </dialog>
  );
}

/** Which routing rule decided an offline orchestrator's turn. */
function ruleText(rule: NonNullable<ContextSnapshot["handoff"]>["rule"]): string {
  if (!rule) return "No routing rule matched: the agent answered itself.";
  return `Routing rule ${rule.index} (/${rule.pattern}/) matched${rule.to ? `: handed to @${rule.to}.` : ", but its specialist is no longer available."}`;
}
