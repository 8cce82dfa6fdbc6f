"use client";

import { useEffect, useId, useRef, useState } from "react";
import { Avatar } from "@/components/ui/avatar";
import { Markdown } from "@/components/conversation/markdown";
import { phoneFullWidth } from "@/components/conversation/message-layout";
import type { MentionHandles } from "@/components/conversation/remark-mentions";
import type { MemberState, PanelView } from "@/lib/panels/panel-view";
import { usePanel } from "@/hooks/use-panel";

const noHandles: MentionHandles = { known: new Set(), mine: null };

const stateLabels: Record<MemberState, string> = {
  waiting: "waiting",
  working: "working…",
  restarting: "restarting…",
  answered: "answered",
  voted: "voted",
  failed: "failed",
};

const stateStyles: Record<MemberState, string> = {
  waiting: "bg-slate-200 text-slate-800 dark:bg-slate-800 dark:text-slate-200",
  working: "bg-amber-100 text-amber-950 dark:bg-amber-900/60 dark:text-amber-50",
  restarting: "bg-amber-100 text-amber-950 dark:bg-amber-900/60 dark:text-amber-50",
  answered: "bg-sky-100 text-sky-950 dark:bg-sky-900/60 dark:text-sky-50",
  voted: "bg-emerald-100 text-emerald-950 dark:bg-emerald-900/60 dark:text-emerald-50",
  failed: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
};

const endings: Record<string, string> = {
  all_voted: "every agent voted",
  max_rounds: "the rounds ran out",
  time: "time ran out",
  tokens: "the token cap was reached",
  failed: "every agent failed",
  error: "it kept failing and was stopped",
};

/** The panel's agents side by side (stacked at phone width): state, current answer, votes received; then every vote with its reason. */
function PanelBoard({ panel, streaming }: { panel: PanelView; streaming: Record<string, string> }) {
  const nameOf = (agentId: string) => panel.agents.find((agent) => agent.id === agentId)?.displayName ?? "An agent";
  const round = Math.max(0, ...panel.agents.map((agent) => agent.round));
  const columns = panel.agents.length >= 3 ? "md:grid-cols-3" : "md:grid-cols-2";
  return (
    <div className="space-y-2">
      <p className="text-xs text-muted" aria-live="polite">
        {panel.status === "running" ? `Round ${round} of ${panel.maxRounds}` : `Finished: ${endings[panel.endedReason ?? ""] ?? panel.endedReason}`} · {panel.tokensUsed.toLocaleString("en")} of{" "}
        {panel.tokenCap.toLocaleString("en")} tokens
      </p>
      <ul className={`grid gap-2 ${columns}`} aria-label="Panel agents">
        {panel.agents.map((agent) => {
          const live = agent.state === "working" || agent.state === "restarting" ? streaming[agent.id] : undefined;
          const text = live || agent.answer?.content;
          return (
            <li key={agent.id} aria-label={`${agent.displayName}: ${stateLabels[agent.state]}`} className="min-w-0 rounded-md border border-slate-200 bg-white p-2 text-sm dark:border-slate-700 dark:bg-slate-950">
              <div className="flex flex-wrap items-center gap-1.5">
                <Avatar name={agent.displayName} colour={agent.color} size="xs" />
                <span className="font-semibold">{agent.displayName}</span>
                <span className={`rounded px-1.5 py-0.5 text-[11px] font-semibold ${stateStyles[agent.state]}`}>{stateLabels[agent.state]}</span>
                <span className="ml-auto text-xs text-muted">
                  round {agent.round} · {agent.votes} vote{agent.votes === 1 ? "" : "s"}
                </span>
              </div>
              {agent.error && <p className="mt-1 text-xs text-danger">{agent.error}</p>}
              {text ? (
                // Long answers scroll in place; focusable so that the keyboard can scroll them too.
                <div tabIndex={0} role="group" aria-label={`${agent.displayName}'s answer`} className="mt-1 max-h-48 overflow-y-auto break-words rounded text-slate-800 dark:text-slate-200">
                  <Markdown text={text} handles={noHandles} />
                </div>
              ) : (
                <p className="mt-1 text-xs text-muted">No answer yet.</p>
              )}
              {agent.earlier.length > 0 && (
                <details className="mt-1 text-xs">
                  <summary className="cursor-pointer font-semibold text-link">
                    {agent.earlier.length} earlier answer{agent.earlier.length === 1 ? "" : "s"}
                  </summary>
                  <ol aria-label={`${agent.displayName}'s earlier answers`} className="mt-1 max-h-48 space-y-1 overflow-y-auto text-muted-strong" tabIndex={0}>
                    {agent.earlier.map((given) => (
                      <li key={given.id} className="break-words border-l-2 border-slate-300 pl-2 dark:border-slate-600">
                        <Markdown text={given.content} handles={noHandles} />
                      </li>
                    ))}
                  </ol>
                </details>
              )}
            </li>
          );
        })}
      </ul>
      {panel.votes.length > 0 && (
        <ul aria-label="Panel votes" className="space-y-0.5 text-xs">
          {panel.votes.map((vote) => (
            <li key={vote.voterId} className={vote.valid ? "text-muted-strong" : "text-muted line-through"}>
              {nameOf(vote.voterId)} voted for {nameOf(vote.forAgentId)}&apos;s answer: {vote.reason}
              {!vote.valid && <span className="sr-only"> (no longer counts: that answer was replaced)</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Under a question put to a panel: the live card while it runs; once it ends, a line pointing to the answer. */
export function PanelOnQuestion({ panelId }: { panelId: string }) {
  const { panel, error, streaming } = usePanel(panelId);
  if (error) return <p className="text-xs text-danger">{error.message}</p>;
  if (!panel) return <p className="text-xs text-muted">Loading the panel…</p>;
  if (panel.status === "finished") return <p className="text-xs text-muted">The panel has answered below ({endings[panel.endedReason ?? ""] ?? panel.endedReason}).</p>;
  return (
    <section aria-label="Panel at work" className={`my-1 ${phoneFullWidth} rounded-lg border border-brand-200 bg-brand-50/40 p-2 dark:border-slate-700 dark:bg-slate-900`}>
      <PanelBoard panel={panel} streaming={streaming} />
    </section>
  );
}

/** On a panel's final answer: the badge, and every answer and vote on demand. */
export function PanelResult({ panelId }: { panelId: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div>
      <div className="flex flex-wrap items-center gap-2">
        <span className="rounded bg-violet-100 px-1.5 py-0.5 text-[10px] font-semibold uppercase text-violet-900 dark:bg-violet-900/50 dark:text-violet-100">panel</span>
        <button type="button" aria-expanded={open} aria-controls={id} onClick={() => setOpen((value) => !value)} className="rounded px-1 text-xs font-semibold text-link hover:underline">
          {open ? "Hide the panel" : "Show the panel"}
        </button>
      </div>
      {open && (
        <div id={id} className="mt-1">
          <PanelDetails panelId={panelId} />
        </div>
      )}
    </div>
  );
}

function PanelDetails({ panelId }: { panelId: string }) {
  const { panel, error, streaming } = usePanel(panelId);
  const section = useRef<HTMLElement>(null);
  const loaded = panel !== undefined;
  // Opened from the last message, the answers would unfold below the fold: bring them into view once.
  useEffect(() => {
    if (loaded) section.current?.scrollIntoView({ block: "nearest" });
  }, [loaded]);
  if (error) return <p className="text-xs text-danger">{error.message}</p>;
  if (!panel) return <p className="text-xs text-muted">Loading the panel…</p>;
  return (
    <section ref={section} aria-label="The panel's answers and votes" className={`${phoneFullWidth} rounded-lg border border-slate-200 p-2 dark:border-slate-700`}>
      <PanelBoard panel={panel} streaming={streaming} />
    </section>
  );
}
