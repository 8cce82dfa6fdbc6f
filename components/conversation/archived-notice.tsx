"use client";

import type { ConversationManager } from "./use-manage-conversation";

/** Where the composer was: an archived conversation is read-only until someone who may unarchives it. */
export function ArchivedNotice({ canUnarchive, manager }: { canUnarchive: boolean; manager: ConversationManager }) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 border-t border-slate-200 px-4 py-3 text-sm dark:border-slate-800">
      <p className="text-muted-strong">This conversation is archived</p>
      {canUnarchive && (
        <button
          type="button"
          disabled={manager.busy}
          onClick={() => void manager.update({ archived: false })}
          className="rounded-md border border-slate-400 px-2 py-1 text-xs font-semibold text-muted-strong hover:bg-slate-100 disabled:opacity-50 dark:border-slate-600 dark:hover:bg-slate-800"
        >
          Unarchive
        </button>
      )}
      {manager.error && (
        <p role="alert" className="w-full text-xs text-danger">
          {manager.error}
        </p>
      )}
    </div>
  );
}
