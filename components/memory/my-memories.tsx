"use client";

import { useEffect, useRef, useState } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import { coverageText } from "@/lib/memory/coverage-text";
import type { EpisodeView } from "@/lib/memory/my-episodes";

export interface MemoryActions {
  list: (input: unknown) => Promise<ActionResult<EpisodeView[]>>;
  remove: (input: unknown) => Promise<ActionResult<void>>;
}

/** What an agent remembers about the person (their episodes with it), each deletable at once and for good. */
export function MyMemories({ agentId, agentName, actions }: { agentId: string; agentName: string; actions: MemoryActions }) {
  const [open, setOpen] = useState(false);
  const [episodes, setEpisodes] = useState<EpisodeView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    if (!open) return;
    const element = dialog.current;
    element?.showModal();
    void actions.list({ agentId }).then((result) => ("error" in result ? setError(result.error.message) : setEpisodes(result.data)));
    return () => element?.close();
  }, [open, agentId, actions]);

  const forget = async (episode: EpisodeView) => {
    const result = await actions.remove({ episodeId: episode.id }).catch(() => ({ error: { message: "Could not reach Chorus. Try again." } }));
    if ("error" in result) return setError(result.error.message);
    setEpisodes((list) => list?.filter((item) => item.id !== episode.id) ?? null);
  };

  return (
    <>
      <button type="button" onClick={() => setOpen(true)} className="rounded-md border border-slate-400 px-2 py-1 text-xs font-semibold text-muted-strong hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800">
        What {agentName} remembers
      </button>
      {open && (
        <dialog
          ref={dialog}
          onClose={() => setOpen(false)}
          aria-labelledby="memories-title"
          className="m-0 h-full max-h-none w-full max-w-none bg-white p-0 text-slate-900 backdrop:bg-black/50 sm:m-auto sm:h-auto sm:max-h-[85vh] sm:max-w-xl sm:rounded-xl dark:bg-slate-900 dark:text-slate-100"
        >
          <div className="flex items-center gap-2 border-b border-slate-200 px-4 py-3 dark:border-slate-800">
            <h2 id="memories-title" className="flex-1 text-lg font-semibold">
              What {agentName} remembers about you
            </h2>
            <button type="button" onClick={() => dialog.current?.close()} className="rounded-md px-2 py-1 text-sm font-medium hover:bg-slate-100 dark:hover:bg-slate-800">
              Close
            </button>
          </div>
          <div className="space-y-3 overflow-y-auto p-4">
            <p className="text-sm text-muted">When a session ends, {agentName} keeps a short summary of it to recall in later conversations. Forgetting one is immediate and final.</p>
            {error && (
              <p role="alert" className="text-sm text-danger">
                {error}
              </p>
            )}
            {episodes === null && !error && <p className="text-sm text-muted">Loading…</p>}
            {episodes?.length === 0 && <p className="text-sm">{agentName} remembers nothing about you yet.</p>}
            {episodes && episodes.length > 0 && (
              <ul aria-label="Memories" className="divide-y divide-slate-200 dark:divide-slate-800">
                {episodes.map((episode) => (
                  <li key={episode.id} className="space-y-1 py-2 text-sm">
                    <p className="text-xs text-muted">
                      {new Date(episode.endedAt).toLocaleString()}
                      {coverageText(episode.coverage) && ` · ${coverageText(episode.coverage)}`}
                    </p>
                    <p>{episode.summary}</p>
                    {episode.facts.length > 0 && (
                      <ul className="list-disc pl-5 text-xs">
                        {episode.facts.map((fact, index) => (
                          <li key={index}>{fact}</li>
                        ))}
                      </ul>
                    )}
                    <button type="button" onClick={() => void forget(episode)} className="rounded-md px-2 py-1 text-xs font-semibold text-danger hover:bg-red-50 dark:hover:bg-red-950">
                      Forget this<span className="sr-only"> memory from {new Date(episode.endedAt).toLocaleDateString()}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </dialog>
      )}
    </>
  );
}
