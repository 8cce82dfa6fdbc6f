"use client";

import { useState } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";

export type EndSessionAction = (input: unknown) => Promise<ActionResult<{ episodes: number }>>;

/** Ends the conversation's session now: agents keep an episode of it (it also ends after a quiet spell). */
export function EndSessionButton({ conversationId, endSession }: { conversationId: string; endSession: EndSessionAction }) {
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const end = async () => {
    setBusy(true);
    const result = await endSession({ conversationId }).catch(() => ({ error: { message: "Could not reach Chorus. Try again." } }));
    setBusy(false);
    if ("error" in result) return setStatus(result.error.message);
    const count = result.data.episodes;
    setStatus(count === 0 ? "Nothing new to remember." : `Session ended: ${count} ${count === 1 ? "memory" : "memories"} kept.`);
  };
  return (
    <span className="flex items-center gap-2">
      <button type="button" disabled={busy} onClick={() => void end()} className="rounded-md border border-slate-400 px-2 py-1 text-xs font-semibold text-muted-strong hover:bg-slate-100 disabled:opacity-60 dark:border-slate-600 dark:hover:bg-slate-800">
        End session
      </button>
      <span role="status" className="text-xs text-muted">
        {status}
      </span>
    </span>
  );
}
