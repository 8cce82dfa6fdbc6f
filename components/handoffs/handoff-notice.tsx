import type { MessageDto } from "@/lib/conversations/message-dto";
import { handoffModeLabels } from "@/lib/handoffs/handoff-modes";
import { Markdown } from "@/components/conversation/markdown";
import type { MentionHandles } from "@/components/conversation/remark-mentions";

/**
 * An orchestrator's handoff, inline in the thread: who handed off to whom and how much context
 * went along; the summary it wrote (and why) opens on demand. A fork can be opened from here.
 */
export function HandoffNotice({ message, handles, onOpenFork }: { message: MessageDto; handles: MentionHandles; onOpenFork?: (forkId: string) => void }) {
  const handoff = message.metadata.handoff!;
  const from = message.author.kind === "agent" ? message.author.displayName : "An agent";
  const to = handoff.toDisplayName ?? `@${handoff.toHandle}`;
  return (
    <div className="my-1 rounded-md border border-slate-200 bg-slate-50 text-sm dark:border-slate-700 dark:bg-slate-900">
      <details>
        <summary className="cursor-pointer px-2 py-1 font-medium text-muted-strong">
          {from} handed off to {to} · {handoffModeLabels[handoff.mode]}
        </summary>
        <div className="space-y-1 border-t border-slate-200 px-2 py-1.5 dark:border-slate-700">
          {handoff.reason && <p className="text-xs text-muted">Why: {handoff.reason}</p>}
          <p className="text-xs font-semibold text-muted">Handoff summary ({from} → {to})</p>
          <Markdown text={message.content} handles={handles} />
        </div>
      </details>
      {handoff.forkId && onOpenFork && (
        <button type="button" onClick={() => onOpenFork(handoff.forkId!)} className="mx-2 mb-1.5 rounded px-1 text-xs font-semibold text-link hover:underline">
          Open {to}&apos;s forked context
        </button>
      )}
    </div>
  );
}
