"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { applyReadUpdate } from "@/hooks/conversation-cache";
import { queryKeys } from "@/hooks/query-keys";
import type { ActionResult } from "@/lib/actions/safe-action";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import type { NotifyLevel } from "@/lib/conversations/notification-level";
import { UNREACHABLE } from "@/components/ui/unreachable";

export type SetNotificationsAction = (input: unknown) => Promise<ActionResult<ConversationSummary>>;

const levels: [NotifyLevel, string][] = [
  ["all", "Every message"],
  ["mentions", "Mentions of me"],
  ["nothing", "Nothing"],
];
const control = "rounded-md border border-slate-400 px-2 py-1 text-xs font-semibold text-muted-strong hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-950 dark:hover:bg-slate-800";

/** This person's notifications here: which messages tell them, and muted or not. The conversation comes back through the sidebar's cache. */
export function NotificationsControl({ conversation, save }: { conversation: ConversationSummary; save: SetNotificationsAction }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const name = conversation.type === "group" ? `#${conversation.title}` : conversation.title;
  const change = async (next: { notify?: NotifyLevel; muted?: boolean }) => {
    const result = await save({ conversationId: conversation.id, notify: next.notify ?? conversation.notify, muted: next.muted ?? conversation.muted }).catch(() => UNREACHABLE);
    if ("error" in result) return setError(result.error.message);
    setError(null);
    // Shown at once; the other tabs hear it from the server.
    queryClient.setQueryData<ConversationSummary[]>(queryKeys.conversations(), (list) => applyReadUpdate(list, result.data));
  };
  return (
    <div className="flex items-center gap-2">
      <select aria-label={`Notify me in ${name} of`} value={conversation.notify} onChange={(event) => void change({ notify: event.target.value as NotifyLevel })} className={control}>
        {levels.map(([level, label]) => (
          <option key={level} value={level}>
            {label}
          </option>
        ))}
      </select>
      <button type="button" aria-pressed={conversation.muted} onClick={() => void change({ muted: !conversation.muted })} className={control}>
        {conversation.muted ? "Muted" : "Mute"}
      </button>
      {error && (
        <p role="alert" className="text-xs text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
