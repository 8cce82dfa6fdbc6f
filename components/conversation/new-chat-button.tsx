"use client";

import { useOpenConversation, type OpenAction } from "@/components/shell/start-forms";

/** Another chat with the same agent, empty, opened at once (the current one stays in the sidebar). */
export function NewChatButton({ agentId, agentName, startAgentChat }: { agentId: string; agentName: string; startAgentChat: OpenAction }) {
  const { open, error, busy } = useOpenConversation(startAgentChat);
  return (
    <>
      <button
        type="button"
        disabled={busy}
        onClick={() => void open({ agentId, new: true })}
        className="rounded-md border border-slate-400 px-2 py-1 text-xs font-semibold text-muted-strong hover:bg-slate-100 disabled:opacity-50 dark:border-slate-600 dark:hover:bg-slate-800"
      >
        New chat<span className="sr-only"> with {agentName}</span>
      </button>
      {error && (
        <p role="alert" className="text-xs text-danger">
          {error}
        </p>
      )}
    </>
  );
}
