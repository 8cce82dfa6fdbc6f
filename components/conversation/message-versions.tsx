"use client";

import { useEffect, useState } from "react";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { MessageVersionView } from "@/lib/messages/list-versions";
import type { MessageChanges } from "@/hooks/use-message-changes";
import { DATE_AND_TIME, useDateFormat } from "@/components/providers/preferences-provider";

const kindWords: Record<MessageVersionView["kind"], string> = { original: "Original", edit: "Edited", resend: "Edited and sent again", generation: "Answer" };

/** ‹ 2/3 ›: which version the conversation continues from, for those who may switch it. */
export function VersionSwitcher({ message, changes, canSwitch }: { message: MessageDto; changes: MessageChanges; canSwitch: boolean }) {
  if (message.versionCount < 2) return null;
  const go = (version: number) => void changes.showVersion(message.id, version);
  const arrow = "rounded px-1 text-link hover:bg-slate-100 disabled:text-muted disabled:hover:bg-transparent dark:hover:bg-slate-800";
  return (
    <span className="inline-flex items-center gap-0.5 text-xs text-muted-strong" role="group" aria-label="Versions">
      {canSwitch && (
        <button type="button" className={arrow} disabled={message.version <= 1} onClick={() => go(message.version - 1)} aria-label="Previous version">
          <span aria-hidden="true">‹</span>
        </button>
      )}
      <span>
        <span className="sr-only">Version </span>
        {message.version}/{message.versionCount}
      </span>
      {canSwitch && (
        <button type="button" className={arrow} disabled={message.version >= message.versionCount} onClick={() => go(message.version + 1)} aria-label="Next version">
          <span aria-hidden="true">›</span>
        </button>
      )}
    </span>
  );
}

/** Every version of a message, listed under it; those who may switch can show another. */
export function VersionHistory({ message, changes, canSwitch, onClose }: { message: MessageDto; changes: MessageChanges; canSwitch: boolean; onClose: () => void }) {
  const [versions, setVersions] = useState<MessageVersionView[] | null>(null);
  const timeFormat = useDateFormat(DATE_AND_TIME);
  useEffect(() => {
    let current = true;
    void changes.listVersions(message.id).then((found) => current && setVersions(found));
    return () => {
      current = false;
    };
  }, [changes, message.id, message.changeSeq]);
  return (
    <section aria-label="Version history" className="mt-2 rounded-md border border-slate-200 p-2 text-sm dark:border-slate-700">
      <div className="mb-1 flex items-center justify-between">
        <h3 className="text-xs font-semibold text-muted-strong">Version history</h3>
        <button type="button" onClick={onClose} className="rounded px-1 text-xs text-link hover:underline">
          Close
        </button>
      </div>
      {!versions && <p className="text-xs text-muted">Loading…</p>}
      <ol className="space-y-2">
        {versions?.map((version) => (
          <li key={version.version} className="border-l-2 border-slate-300 pl-2 dark:border-slate-600">
            <p className="text-xs text-muted">
              {version.version}. {kindWords[version.kind]} · {timeFormat.format(new Date(version.createdAt))}
              {version.shown && " · shown"}
            </p>
            <p className="whitespace-pre-wrap break-words text-slate-800 dark:text-slate-200">{version.content}</p>
            {canSwitch && !version.shown && (
              <button type="button" onClick={() => void changes.showVersion(message.id, version.version).then(onClose)} className="text-xs text-link hover:underline">
                Show version {version.version}
              </button>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
