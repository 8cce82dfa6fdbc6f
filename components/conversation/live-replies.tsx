import type { LiveReply } from "@/hooks/use-live-replies";
import { Avatar } from "@/components/ui/avatar";
import { AgentBadge } from "./agent-badge";
import { Markdown } from "./markdown";
import type { MentionHandles } from "./remark-mentions";

/**
 * Replies still streaming, each with its agent's attribution; Stop for whoever asked (and admins):
 * the server refuses anyone else.
 */
export function LiveReplies({ replies, onStop, canStop, handles }: { replies: LiveReply[]; onStop: (dispatchId: string) => void; canStop: (replyToMessageId: string) => boolean; handles: MentionHandles }) {
  return (
    <>
      {replies.map((reply) => (
        <li key={reply.dispatchId} className="flex gap-3 px-3 py-2 sm:px-4" aria-label={`${reply.agent.displayName} is replying`} aria-busy="true">
          <Avatar name={reply.agent.displayName} colour={reply.agent.color} />
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-baseline gap-2">
              <span className="font-semibold">{reply.agent.displayName}</span>
              <AgentBadge />
              {canStop(reply.replyToMessageId) && (
                <button
                  type="button"
                  onClick={() => onStop(reply.dispatchId)}
                  className="ml-auto rounded border border-slate-400 px-2 py-0.5 text-xs text-muted-strong hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
                >
                  Stop
                </button>
              )}
            </div>
            <div className="text-slate-800 dark:text-slate-200">
              <Markdown text={reply.text} handles={handles} />
              <span aria-hidden="true" className="ml-0.5 inline-block h-4 w-1.5 animate-pulse bg-slate-400 align-middle" />
            </div>
          </div>
        </li>
      ))}
    </>
  );
}
