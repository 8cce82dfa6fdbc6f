"use client";

import { useEffect, useId, useRef } from "react";
import type { ReplySource } from "@/lib/conversations/message-metadata";
import { useReplySource } from "@/hooks/use-reply-source";
import { useModalDialog } from "@/components/ui/use-modal-dialog";
import { dialogFrame, sheetFrame } from "./attachment-dialog";

export interface ShownSource {
  messageId: string;
  number: number;
  source: ReplySource;
}

/**
 * A reply's source over the conversation, in the attachments' modal <dialog>: the cited chunk in
 * its document, between its neighbours, the cited one marked. Close (or Escape) gives focus back
 * to the source that opened it.
 */
export function SourceDialog({ shown, onClose }: { shown: ShownSource | null; onClose: () => void }) {
  const { dialog, close, dismiss } = useModalDialog(shown);
  const titleId = useId();
  return (
    <dialog ref={dialog} aria-labelledby={titleId} onClose={onClose} className={`${dialogFrame} ${sheetFrame}`}>
      {shown && (
        <div className="flex h-full flex-col sm:max-h-[90vh]">
          <div className="flex items-center gap-3 border-b border-slate-200 px-4 py-2 dark:border-slate-800">
            <h2 id={titleId} className="min-w-0 flex-1 truncate font-semibold">
              [{shown.number}] {shown.source.document}
            </h2>
            <button ref={close} type="button" onClick={dismiss} className="rounded-md px-2 py-1 text-sm font-medium hover:bg-slate-100 dark:hover:bg-slate-800">
              Close
            </button>
          </div>
          <SourceText messageId={shown.messageId} source={shown.source} />
        </div>
      )}
    </dialog>
  );
}

function SourceText({ messageId, source }: { messageId: string; source: ReplySource }) {
  const { data, error, isPending } = useReplySource(messageId, source.chunkId);
  const cited = useRef<HTMLElement>(null);
  // The cited passage in view, its neighbours around it. (A block body: scrollIntoView returns a promise in newer browsers, which React would take for a cleanup.)
  useEffect(() => {
    cited.current?.scrollIntoView({ block: "nearest" });
  }, [data]);
  if (isPending) return <p role="status" className="p-4 text-sm text-muted">Loading the source…</p>;
  if (error) return <p role="alert" className="p-4 text-sm text-danger">{error.message}</p>;
  if (data.removed) return <p className="p-4 text-sm text-muted">{source.document} was deleted or replaced since this reply, so this passage can no longer be shown.</p>;
  return (
    <div role="region" aria-label={`Passage ${data.number} in ${data.document.name}`} tabIndex={0} className="min-h-0 flex-1 space-y-3 overflow-auto p-4 text-sm focus-visible:-outline-offset-2">
      {data.passages.map((passage) =>
        passage.cited ? (
          <section ref={cited} key={passage.ordinal} aria-label="Cited passage" className="rounded-md border-l-4 border-amber-500 bg-amber-50 px-3 py-2 dark:bg-amber-950">
            <p className="mb-1 text-xs font-semibold uppercase text-amber-900 dark:text-amber-200">Cited passage</p>
            <p className="whitespace-pre-wrap break-words">{passage.text}</p>
          </section>
        ) : (
          <p key={passage.ordinal} className="whitespace-pre-wrap break-words text-muted">
            {passage.text}
          </p>
        ),
      )}
    </div>
  );
}
