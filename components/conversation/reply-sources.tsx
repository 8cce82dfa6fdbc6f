"use client";

import { useId, useState } from "react";
import type { ReplySource } from "@/lib/conversations/message-metadata";
import { SourceDialog, type ShownSource } from "./source-dialog";
import { sourceElementId } from "./source-ids";

/**
 * "Sources" under a reply: each chunk its context included, numbered as its [n] markers cite
 * them, with the document's name and the start of the chunk; one opens in a dialog. A source
 * whose document was deleted or replaced since shows as removed, with nothing to open.
 */
export function ReplySources({ messageId, sources }: { messageId: string; sources: readonly ReplySource[] }) {
  const [shown, setShown] = useState<ShownSource | null>(null);
  const labelId = useId();
  return (
    <div className="mt-1 max-w-2xl">
      <p id={labelId} className="text-xs font-semibold text-muted">
        Sources
      </p>
      <ol aria-labelledby={labelId} className="mt-0.5 space-y-1">
        {sources.map((source, index) => {
          const number = index + 1;
          const id = sourceElementId(messageId, number);
          return (
            <li key={source.chunkId} className="text-sm">
              {source.removed ? (
                <span id={id} tabIndex={-1} className="block rounded px-2 py-1 text-muted focus-visible:outline-2">
                  [{number}] <span className="font-medium">{source.document}</span> — removed
                </span>
              ) : (
                <button
                  id={id}
                  type="button"
                  onClick={() => setShown({ messageId, number, source })}
                  className="block w-full rounded border border-slate-200 px-2 py-1 text-left hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
                >
                  <span className="font-semibold text-link">[{number}]</span> <span className="font-medium">{source.document}</span>
                  <span className="block truncate text-xs text-muted">{source.snippet}</span>
                </button>
              )}
            </li>
          );
        })}
      </ol>
      <SourceDialog shown={shown} onClose={() => setShown(null)} />
    </div>
  );
}
