"use client";

import { useMenu } from "@/components/ui/use-menu";
import { useForks } from "@/hooks/use-forks";

/** The forks made from a conversation, from its header: each opens beside the thread. */
export function ForksMenu({ conversationId, onOpenFork }: { conversationId: string; onOpenFork: (forkId: string) => void }) {
  const menu = useMenu();
  const { data: forks, error, isPending } = useForks(conversationId, menu.open);
  return (
    <div className="relative">
      <button {...menu.triggerProps} type="button" className="rounded-md border border-slate-400 px-2 py-1 text-xs font-semibold text-muted-strong hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800">
        Forks
      </button>
      {menu.open && (
        <div {...menu.menuProps} aria-label="Forks of this conversation" className="absolute right-0 top-full z-30 mt-1 w-72 rounded-lg border border-slate-200 bg-white p-1 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900">
          {isPending && <p className="px-2 py-1 text-muted">Loading…</p>}
          {error && <p className="px-2 py-1 text-danger">{error.message}</p>}
          {forks?.length === 0 && <p className="px-2 py-1 text-muted">No forks yet: they appear when an agent hands off with a forked context.</p>}
          {forks?.map((fork) => (
            <button
              key={fork.id}
              type="button"
              role="menuitem"
              tabIndex={-1}
              onClick={() => {
                menu.close(false);
                onOpenFork(fork.id);
              }}
              className="block w-full rounded px-2 py-1.5 text-left hover:bg-slate-100 focus:bg-slate-100 dark:hover:bg-slate-800 dark:focus:bg-slate-800"
            >
              <span className="font-medium">{fork.agent?.displayName ?? fork.title}</span>
              <span className="block truncate text-xs text-muted">
                {fork.status === "finished" ? "Finished" : "Working"} · “{fork.question}”
              </span>
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
