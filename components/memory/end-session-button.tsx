"use client";

import { useEffect, useState } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import { coverageText } from "@/lib/memory/coverage-text";
import type { SessionEndView } from "@/lib/memory/session-end-view";
import { getSocket, listenTo } from "@/hooks/use-socket";

export type EndSessionAction = (input: unknown) => Promise<ActionResult<{ sessionEndId: string | null }>>;
export type ReadSessionEndAction = (input: unknown) => Promise<ActionResult<SessionEndView>>;

/** The socket tells when the episodes are written; polling covers a missed event. */
const POLL_MS = 4_000;

/**
 * Ends the conversation's session now (it also ends after a quiet spell). The episodes are
 * written in the background: the button says it is working, then what was kept about this
 * person, or why nothing was.
 */
export function EndSessionButton({ conversationId, endSession, readSessionEnd }: { conversationId: string; endSession: EndSessionAction; readSessionEnd: ReadSessionEndAction }) {
  const [pending, setPending] = useState<string | null>(null);
  const [view, setView] = useState<SessionEndView | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const settled = view !== null && (view.status === "done" || view.status === "failed");
  const working = pending !== null && !settled;

  useEffect(() => {
    if (!pending || settled) return;
    const settle = (next: SessionEndView) => next.id === pending && setView(next);
    const poll = setInterval(() => void readSessionEnd({ sessionEndId: pending }).then((result) => "data" in result && settle(result.data)), POLL_MS);
    const stop = listenTo(getSocket(), { "memory:session-end": settle });
    return () => {
      clearInterval(poll);
      stop();
    };
  }, [pending, settled, readSessionEnd]);

  const end = async () => {
    setStatus(null);
    setView(null);
    setPending(null);
    const result = await endSession({ conversationId }).catch(() => ({ error: { message: "Could not reach Chorus. Try again." } }));
    if ("error" in result) return setStatus(result.error.message);
    if (result.data.sessionEndId === null) return setStatus("Nothing new to remember.");
    setPending(result.data.sessionEndId);
  };

  return (
    <div className="flex min-w-0 flex-wrap items-center gap-2">
      <button
        type="button"
        disabled={working}
        aria-busy={working}
        onClick={() => void end()}
        className="rounded-md border border-slate-400 px-2 py-1 text-xs font-semibold text-muted-strong hover:bg-slate-100 disabled:opacity-60 dark:border-slate-600 dark:hover:bg-slate-800"
      >
        {working ? "Ending session…" : "End session"}
      </button>
      <div role="status" className="min-w-0 text-xs text-muted">
        {working ? (view?.retrying ? "The model did not answer; trying again shortly." : "Writing what the agents keep…") : view ? <Outcome view={view} /> : status}
      </div>
    </div>
  );
}

function Outcome({ view }: { view: SessionEndView }) {
  if (view.status === "failed") return <span className="text-danger">{view.error}</span>;
  if (view.kept.length === 0) return <>Session ended: nothing was kept about you.</>;
  return (
    <details>
      <summary className="cursor-pointer">
        Session ended: {view.kept.map((episode) => `${episode.agentName} kept ${episode.facts.length} ${episode.facts.length === 1 ? "fact" : "facts"}`).join(", ")} about you.
      </summary>
      <ul className="mt-1 max-w-prose space-y-1 text-slate-900 dark:text-slate-100">
        {view.kept.map((episode) => (
          <li key={episode.agentId}>
            <strong>{episode.agentName}:</strong> {episode.summary}
            {coverageText(episode.coverage) && <span className="text-muted"> ({coverageText(episode.coverage)})</span>}
            {episode.facts.length > 0 && (
              <ul className="list-disc pl-5">
                {episode.facts.map((fact, index) => (
                  <li key={index}>{fact}</li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}
