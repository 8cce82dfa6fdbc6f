"use client";

import Link from "next/link";
import { useEffect, useRef } from "react";
import { useFork } from "@/hooks/use-forks";
import { ForkView } from "./fork-view";

/**
 * A forked context beside the conversation it came from (over it at phone width). Escape or
 * Close shuts it and gives focus back to where it was opened from.
 */
export function ForkPanel({ forkId, userId, onClose }: { forkId: string; userId: string; onClose: () => void }) {
  const { data: fork, error, isPending } = useFork(forkId);
  const panel = useRef<HTMLElement>(null);
  const opener = useRef<Element | null>(null);

  useEffect(() => {
    opener.current = document.activeElement;
    panel.current?.focus();
    return () => (opener.current as HTMLElement | null)?.focus?.();
  }, [forkId]);

  return (
    <aside
      ref={panel}
      tabIndex={-1}
      aria-label="Forked context"
      onKeyDown={(event) => event.key === "Escape" && onClose()}
      className="fixed inset-0 z-40 flex flex-col bg-white outline-none md:static md:z-auto md:w-[28rem] md:shrink-0 md:border-l md:border-slate-200 dark:bg-slate-950 md:dark:border-slate-800"
    >
      <div className="flex items-center gap-2 border-b border-slate-200 px-4 py-2 dark:border-slate-800">
        <Link href={`/c/${forkId}`} className="flex-1 text-sm text-link hover:underline">
          Open on its own page
        </Link>
        <button type="button" onClick={onClose} className="rounded-md px-2 py-1 text-sm font-medium hover:bg-slate-100 dark:hover:bg-slate-800">
          Close<span className="sr-only"> the forked context</span>
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto p-4">
        {isPending && <p className="text-sm text-muted">Loading…</p>}
        {error && (
          <p role="alert" className="text-sm text-danger">
            {error.message}
          </p>
        )}
        {fork && <ForkView fork={fork} userId={userId} headingLevel="h2" />}
      </div>
    </aside>
  );
}
